"""The examples of sage_attention: spec files, a notebook and table scripts.

Installed as ``sage_attention.examples`` (package data); ``sage-attention
examples [DIR]`` writes the spec files and the notebook into a folder.
"""
