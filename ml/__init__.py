"""Framework-free math retrieval library: formula graphs, node embeddings, retrieval, evaluation.

Nothing in this package imports Django; `searchapp` calls into it.
"""
