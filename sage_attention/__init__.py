r"""
sage_attention: the algebraic geometry of attention networks

Placeholder, filled in as the modules land.
"""
