"""Readers of the data files, one module per file format, shared by indexing, training and every benchmark.

Framework-free, built on `mathparse` alone: nothing here imports `ml` (tests/test_layers.py).

Every reader reports each line it cannot read (a `Problem` or a `RecordError` naming the line), never drops it.
"""
