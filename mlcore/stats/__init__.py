"""Statistics: agreement, p-values, permutation tests, SQuAD metrics, annotation statistics, proportions (Wilson, vMER)."""
