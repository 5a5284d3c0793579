"""Scoring of candidate formulas against a query: ColBERT-style maxsim per representation, then fusion."""
