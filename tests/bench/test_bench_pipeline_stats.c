/* SPDX-License-Identifier: MIT */
/*
 * bp_percentile / bp_median (bench_pipeline_stats.c): linear interpolation
 * between closest ranks, on values worked out by hand.
 */
#include <math.h>

#include "bench_pipeline.h"
#include "check.h"

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-12;
}

int main(void)
{
    double five[] = { 5, 1, 4, 2, 3 };
    /* sorted 1 2 3 4 5: p10 at rank 0.4 -> 1.4; p90 at rank 3.6 -> 4.6; median rank 2 -> 3 */
    CHECK(near(bp_percentile(five, 5, 10.0), 1.4), "p10 %g", bp_percentile(five, 5, 10.0));
    CHECK(near(bp_percentile(five, 5, 90.0), 4.6), "p90 %g", bp_percentile(five, 5, 90.0));
    CHECK(near(bp_median(five, 5), 3.0), "median %g", bp_median(five, 5));
    CHECK(near(bp_percentile(five, 5, 100.0), 5.0) && near(bp_percentile(five, 5, 0.0), 1.0), "ends");
    double two[] = { 20, 10 };
    /* rank 0.1 -> 11, rank 0.5 -> 15 */
    CHECK(near(bp_percentile(two, 2, 10.0), 11.0), "p10 of two %g", bp_percentile(two, 2, 10.0));
    CHECK(near(bp_median(two, 2), 15.0), "median of two %g", bp_median(two, 2));
    double one[] = { 7 };
    CHECK(near(bp_percentile(one, 1, 90.0), 7.0), "one value %g", bp_percentile(one, 1, 90.0));
    CHECK(bp_median(NULL, 0) == 0.0, "no values");
    printf("test_bench_pipeline_stats: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
