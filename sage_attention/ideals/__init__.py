r"""
Ideals: grading, symmetry, modular linear algebra, elimination, the
implicitization engine, Hilbert data and the completeness proof.
"""
