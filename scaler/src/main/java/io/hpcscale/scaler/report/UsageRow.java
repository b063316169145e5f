package io.hpcscale.scaler.report;

/**
 * Instance-hours of one pool (or one day) in a usage report.
 *
 * @param key       the pool, or the day, the row adds up
 * @param vmSize    the pool's VM size; empty on rows by day, which may mix sizes
 * @param idleShare the part of the instance-hours whose node ran no job, 0 to 1
 * @param cost      instance-hours times the pool's price per hour, or null when a pool of the row has no price
 */
public record UsageRow(String key, String vmSize, double instanceHours, double busyHours, double idleShare,
        Double cost) {
}
