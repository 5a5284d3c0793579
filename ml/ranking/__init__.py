"""Learning to rank: features of a candidate against a query, the LambdaMART ranker, and its cross-validation."""
