"""Evaluation: ARQMath prime metrics, the dev split, pool ranking of models and baselines, and the parser reports."""
