# Reference values of TestDesignComponents (analysis/trim/design_test.go):
# the mean squares of R's aov() for two balanced nested designs, from which
# the method-of-moments variance components follow (Kalibera and Jones,
# ISMM 2013, eqs. 1-3, equal to the ANOVA estimators for balanced data).
# Run: Rscript analysis/trim/testdata/components.R
options(digits = 15)

# 3 forks x 4 iterations.
y <- c(10.1, 10.3, 9.9, 10.2, 11.0, 11.4, 10.8, 11.1, 9.5, 9.7, 9.6, 9.9)
fork <- factor(rep(1:3, each = 4))
ms <- summary(aov(y ~ fork))[[1]][["Mean Sq"]]
cat(sprintf("2-level: MS_fork %.15g MS_within %.15g mean %.15g\n", ms[1], ms[2], mean(y)))
cat(sprintf("2-level: S2_iteration %.15g S2_fork %.15g\n", ms[2], (ms[1] - ms[2]) / 4))

# 2 forks x 3 iterations x 2 slices.
y <- c(5.0, 5.2, 5.1, 5.4, 4.9, 5.0, 6.0, 6.3, 6.1, 5.8, 6.4, 6.2)
fork <- factor(rep(1:2, each = 6))
iteration <- factor(rep(1:6, each = 2))
ms <- summary(aov(y ~ fork / iteration))[[1]][["Mean Sq"]]
cat(sprintf("3-level: MS_fork %.15g MS_iteration %.15g MS_slice %.15g\n", ms[1], ms[2], ms[3]))
cat(sprintf("3-level: S2_slice %.15g S2_iteration %.15g S2_fork %.15g\n",
            ms[3], max(0, (ms[2] - ms[3]) / 2), (ms[1] - ms[2]) / 6))
