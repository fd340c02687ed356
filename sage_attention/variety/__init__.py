r"""
The neurovariety: membership, certificates (complex and real
realizability), joins of heads, singular points, generation reports, export.
"""
