//! Statistics for checking simulations against exact values.

use statrs::distribution::{ChiSquared, ContinuousCDF};

/// The standard normal's 97.5% quantile: a two-sided 95% interval is this many standard
/// errors either side.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval for `successes` out of `trials`.
pub fn wilson95(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = Z95;
    let n = trials as f64;
    let p = successes as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    // At 0 or all successes the bound is exactly 0 or 1; the subtraction would leave a
    // rounding residue such as 2e-19.
    let low = if successes == 0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if successes == trials { 1.0 } else { (centre + half).min(1.0) };
    (low, high)
}

/// The z-score of an estimate from `trials` trials against the exact probability `p`:
/// (estimate - p) / sqrt(p (1 - p) / trials). None when p is 0 or 1 (no spread).
pub fn z_score(successes: u64, trials: u64, p: f64) -> Option<f64> {
    let spread = (p * (1.0 - p) / trials as f64).sqrt();
    (spread > 0.0 && trials > 0).then(|| (successes as f64 / trials as f64 - p) / spread)
}

/// A sample's mean, the standard error of that mean (from the sample's own spread) and the
/// 95% normal interval it gives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleMean {
    pub mean: f64,
    /// sqrt(s^2 / n), with s^2 the sample variance (n - 1 in its denominator); 0 for one value.
    pub sd_of_mean: f64,
    /// None for one value: its sample variance is undefined, and an interval of width 0
    /// would claim a certainty one game cannot give.
    pub ci95: Option<(f64, f64)>,
}

/// The mean of `n` values given their sum and the sum of their squares; None for no values.
pub fn sample_mean(n: u64, sum: u128, squares: u128) -> Option<SampleMean> {
    if n == 0 {
        return None;
    }
    let count = n as f64;
    let mean = sum as f64 / count;
    // The squares about the mean; rounding may leave a tiny negative for equal values.
    let spread = (squares as f64 - mean * sum as f64).max(0.0);
    let sd_of_mean = if n > 1 { (spread / (count - 1.0) / count).sqrt() } else { 0.0 };
    let half = Z95 * sd_of_mean;
    Some(SampleMean { mean, sd_of_mean, ci95: (n > 1).then_some((mean - half, mean + half)) })
}

/// The z-score of the mean of `n` values against the exact mean and variance of one value:
/// (mean - exact mean) / sqrt(variance / n). None when there is no spread or no value.
pub fn mean_z(mean: f64, n: u64, exact_mean: f64, exact_variance: f64) -> Option<f64> {
    let spread = (exact_variance / n as f64).sqrt();
    (n > 0 && spread > 0.0).then(|| (mean - exact_mean) / spread)
}

/// Pearson's chi-square test of observed counts against exact probabilities.
#[derive(Clone, Debug, PartialEq)]
pub struct ChiSquare {
    pub statistic: f64,
    pub degrees_of_freedom: u64,
    pub p_value: f64,
}

/// The fewest games a category of the test must be expected to hold (the usual rule), so
/// that the chi-square approximation holds.
const FEWEST_EXPECTED: f64 = 5.0;

/// Categories expected fewer than 5 times are pooled into one, and a pool still expected
/// fewer than 5 times joins the category expected least: a pool expected 0.33 times that
/// met 3 games added 21.6 to the statistic, and 1,000 games from the 15-hole board's tip
/// were rejected at p < 0.001 in 1.3% of seeds. None when fewer than two categories remain.
pub fn chi_square(observed: &[u64], probabilities: &[f64]) -> Option<ChiSquare> {
    let n: u64 = observed.iter().sum();
    let mut cells: Vec<(f64, f64)> = Vec::new();
    let mut pooled = (0.0, 0.0);
    for (&o, &p) in observed.iter().zip(probabilities) {
        let e = p * n as f64;
        if e >= FEWEST_EXPECTED {
            cells.push((o as f64, e))
        } else {
            pooled = (pooled.0 + o as f64, pooled.1 + e)
        }
    }
    let least = cells.iter_mut().min_by(|a, b| a.1.total_cmp(&b.1));
    match least {
        Some(least) if pooled.1 < FEWEST_EXPECTED => *least = (least.0 + pooled.0, least.1 + pooled.1),
        _ if pooled.1 > 0.0 => cells.push(pooled),
        _ => {}
    }
    if cells.len() < 2 {
        return None;
    }
    let statistic: f64 = cells.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
    let df = cells.len() as u64 - 1;
    let p_value = 1.0 - ChiSquared::new(df as f64).ok()?.cdf(statistic);
    Some(ChiSquare { statistic, degrees_of_freedom: df, p_value })
}

/// One test of independent samples, each tested against its own probabilities (a stratified
/// sample's strata): the sum of their statistics, on the sum of their degrees of freedom.
/// None when no sample has a test.
pub fn chi_square_of_strata(tests: impl IntoIterator<Item = ChiSquare>) -> Option<ChiSquare> {
    let (statistic, df) = tests.into_iter().fold(None, |sum: Option<(f64, u64)>, t| {
        let (s, d) = sum.unwrap_or((0.0, 0));
        Some((s + t.statistic, d + t.degrees_of_freedom))
    })?;
    let p_value = 1.0 - ChiSquared::new(df as f64).ok()?.cdf(statistic);
    Some(ChiSquare { statistic, degrees_of_freedom: df, p_value })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn wilson_interval_of_a_known_case() {
        // 10 of 100: Wilson 95% interval (0.0552, 0.1744), a textbook value.
        let (lo, hi) = wilson95(10, 100);
        assert_abs_diff_eq!(lo, 0.0552, epsilon = 1e-4);
        assert_abs_diff_eq!(hi, 0.1744, epsilon = 1e-4);
    }

    #[test]
    fn z_score_and_chi_square() {
        assert_abs_diff_eq!(z_score(60, 100, 0.5).unwrap(), 2.0, epsilon = 1e-12);
        assert!(z_score(0, 100, 0.0).is_none());
        // A perfect fit has statistic 0 and p-value 1.
        let c = chi_square(&[50, 30, 20], &[0.5, 0.3, 0.2]).unwrap();
        assert_eq!((c.statistic, c.degrees_of_freedom), (0.0, 2));
        assert_abs_diff_eq!(c.p_value, 1.0, epsilon = 1e-12);
        // Chi-square(1) exceeds 3.841 with probability 0.05.
        let c = chi_square(&[60, 40], &[0.5, 0.5]).unwrap();
        assert_abs_diff_eq!(c.statistic, 4.0, epsilon = 1e-12);
        assert_abs_diff_eq!(c.p_value, 0.0455, epsilon = 1e-4);
        // Two strata: 4.0 on 1 and 0 on 2 degrees of freedom make 4.0 on 3, p = 0.2615.
        let perfect = chi_square(&[50, 30, 20], &[0.5, 0.3, 0.2]).unwrap();
        let both = chi_square_of_strata([c.clone(), perfect]).unwrap();
        assert_eq!((both.statistic, both.degrees_of_freedom), (4.0, 3));
        assert_abs_diff_eq!(both.p_value, 0.2615, epsilon = 1e-4);
        assert_eq!(chi_square_of_strata([c.clone()]), Some(c));
        assert!(chi_square_of_strata([]).is_none());
    }

    #[test]
    fn a_pool_expected_too_rarely_joins_the_category_expected_least() {
        // 1,000 games: the third category, expected 0.4 times, met 3 games. Alone it added
        // (3 - 0.4)^2 / 0.4 = 16.9; joined with the second (expected 299.6, 300 with it),
        // 297 + 3 = 300 games meet their expectation exactly.
        let c = chi_square(&[700, 297, 3], &[0.7, 0.2996, 0.0004]).unwrap();
        assert_eq!(c.degrees_of_freedom, 1);
        assert_abs_diff_eq!(c.statistic, 0.0, epsilon = 1e-9);
        // A pool expected 5 times or more stays a category of its own: 6 and 4 expected
        // 4.5 times each, pooled 9 and 10, beside 490 of 491: 1 / 491 + (10 - 9)^2 / 9.
        let c = chi_square(&[490, 6, 4], &[0.982, 0.009, 0.009]).unwrap();
        assert_eq!(c.degrees_of_freedom, 1);
        assert_abs_diff_eq!(c.statistic, 1.0 / 491.0 + 1.0 / 9.0, epsilon = 1e-9);
        // Every category rare: one pool, no test.
        assert!(chi_square(&[2, 1], &[0.5, 0.5]).is_none());
    }

    #[test]
    fn a_sample_mean_and_its_interval() {
        // 1, 2, 3, 4: mean 2.5, sample variance 5/3, standard error sqrt(5/12).
        let m = sample_mean(4, 10, 30).unwrap();
        assert_eq!(m.mean, 2.5);
        assert_abs_diff_eq!(m.sd_of_mean, (5.0f64 / 12.0).sqrt(), epsilon = 1e-15);
        let (lo, hi) = m.ci95.unwrap();
        assert_abs_diff_eq!(lo, 2.5 - Z95 * (5.0f64 / 12.0).sqrt(), epsilon = 1e-15);
        assert_abs_diff_eq!(hi, 2.5 + Z95 * (5.0f64 / 12.0).sqrt(), epsilon = 1e-15);
        // Equal values, or one value: no spread, the interval is the mean.
        let same = sample_mean(3, 21, 147).unwrap();
        assert_eq!((same.mean, same.sd_of_mean, same.ci95), (7.0, 0.0, Some((7.0, 7.0))));
        // One value has no sample variance, so no interval (it was (5, 5)).
        assert_eq!(sample_mean(1, 5, 25).unwrap().ci95, None);
        assert!(sample_mean(0, 0, 0).is_none());
    }

    #[test]
    fn the_z_of_a_mean_against_the_exact_mean() {
        // 100 values, mean 10.5 against mean 10 and variance 25: standard error 0.5.
        assert_abs_diff_eq!(mean_z(10.5, 100, 10.0, 25.0).unwrap(), 1.0, epsilon = 1e-12);
        assert!(mean_z(10.5, 100, 10.0, 0.0).is_none());
        assert!(mean_z(0.0, 0, 10.0, 25.0).is_none());
    }
}
