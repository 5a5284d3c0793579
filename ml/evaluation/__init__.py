"""Evaluation: benchmark file readers, ARQMath prime metrics, pool ranking, and the baselines to report against."""
