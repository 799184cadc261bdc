/* SPDX-License-Identifier: MIT */
/*
 * Order statistics of bench_pipeline's report: percentiles by linear
 * interpolation between closest ranks (rank p/100 * (n - 1)), the rule most
 * statistics packages default to, so p10 / p90 of a few values stay inside them.
 */
#include <stdlib.h>

#include "bench_pipeline.h"

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bp_percentile(double *values, size_t n, double p)
{
    if (n == 0)
        return 0.0;
    qsort(values, n, sizeof(*values), compare);
    double rank = p / 100.0 * (double)(n - 1);
    size_t low = (size_t)rank;
    if (low + 1 >= n)
        return values[n - 1];
    double fraction = rank - (double)low;
    return values[low] + (values[low + 1] - values[low]) * fraction;
}

double bp_median(double *values, size_t n)
{
    return bp_percentile(values, n, 50.0);
}
