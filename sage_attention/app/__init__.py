r"""
Applications: the command line, sweeps, experiments and figures.
"""
