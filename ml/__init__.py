"""Framework-free learning library: formula and text encoders, training, retrieval, ranking and evaluation.

It builds on `mathparse` (formulas → trees) and `corpora` (the data files' readers); nothing in it imports Django
or `searchapp`, which calls into it (tests/test_layers.py checks both).
"""
