"""Statistics: agreement, p-values, permutation tests, SQuAD metrics, annotation statistics, proportions (Wilson, vMER), item response theory (2PL, adversarial item quality)."""
