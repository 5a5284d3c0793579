"""Readers of the data files, one module per file format, shared by indexing, training and every benchmark.

Every reader reports each line it cannot read (a `Problem` or a `RecordError` naming the line), never drops it.
"""
