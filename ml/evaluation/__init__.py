"""Evaluation: benchmark file readers, ARQMath prime metrics, pool ranking and the baselines results are reported against."""
