//! Every number the tool shows, in one place: decimals rounded from the exact fraction (not through a
//! float), the double nearest to a fraction for JSON and plots, information in bits, thousands
//! separators for big counts, and a readable abbreviation for fractions too long to print.
//!
//! One style for every decimal a person reads: `digits` significant digits, plain notation for values
//! from 10^-4 up to where at most three padding zeros would be needed, scientific `d.dddde-N` outside
//! that range. The same threshold applies to exact fractions and to floats, so a column never mixes
//! styles for values of the same decade.

use rug::{Integer, Rational};
use serde::Serialize;
use std::cmp::Ordering;

/// `value` to `digits` significant digits, rounded half away from zero from the fraction itself.
///
/// Kept under its old name (and its `u32` count) for the callers of the former `numfmt::decimal`; it is
/// [`significant_exact`] and shares its style.
pub fn decimal(value: &Rational, digits: u32) -> String {
    significant_exact(value, digits as usize)
}

/// `value` to `digits` significant digits (at least one), rounded half away from zero from the exact
/// fraction, in the shared plain/scientific style (see [`is_plain`]). Both forms keep trailing zeros:
/// they state the precision (`1.00000`, `4.20e-5`), so a column of one precision shows one width.
pub fn significant_exact(value: &Rational, digits: usize) -> String {
    if *value == 0 {
        return "0".into();
    }
    let digits = digits.max(1);
    let (mantissa, e) = round_to_digits(&Rational::from(value.abs_ref()), digits);
    layout(*value < 0, &mantissa, e)
}

/// The same style as [`significant_exact`] for a float: `-` for NaN (a missing value in a table),
/// `inf`/`-inf` for infinities, `0` for either zero. A finite float is a fraction with a power-of-two
/// denominator, so it is rounded exactly, with the same rule as the fractions.
pub fn significant(value: f64, digits: usize) -> String {
    if value.is_nan() {
        return "-".into();
    }
    if value.is_infinite() {
        return if value > 0.0 { "inf" } else { "-inf" }.into();
    }
    match Rational::from_f64(value) {
        Some(exact) => significant_exact(&exact, digits),
        None => "-".into(),
    }
}

/// Whether a value in [10^e, 10^(e+1)) shown with `digits` significant digits is written plainly.
///
/// Plain from e = -4 (`0.000123457`; one more zero, `7.76902e-5`, is already hard to count) up to where
/// at most three zeros pad the digits (with 6 digits: up to `123457000`, then `1.23457e9`).
pub fn is_plain(e: i64, digits: usize) -> bool {
    (-4..digits as i64 + 3).contains(&e)
}

/// The `digits` leading decimal digits of the positive `v`, rounded half up, and the exponent e with
/// 10^e <= v < 10^(e+1) of the rounded value.
fn round_to_digits(v: &Rational, digits: usize) -> (String, i64) {
    let mut e = decimal_exponent(v);
    let scaled = v * pow10(digits as i64 - 1 - e);
    let mut mantissa = Integer::from((scaled + Rational::from((1, 2))).floor_ref());
    let mut text = mantissa.to_string();
    if text.len() > digits {
        // Rounding carried into a new digit (9.9995 -> 10.00).
        mantissa /= 10;
        e += 1;
        text = mantissa.to_string();
    }
    (text, e)
}

/// The exponent e with 10^e <= v < 10^(e+1), for a positive `v`: estimated from the bit lengths, then
/// corrected exactly.
fn decimal_exponent(v: &Rational) -> i64 {
    let bits = i64::from(v.numer().significant_bits()) - i64::from(v.denom().significant_bits());
    let mut e = (bits as f64 * std::f64::consts::LOG10_2).floor() as i64 - 1;
    while pow10(e + 1) <= *v {
        e += 1;
    }
    while pow10(e) > *v {
        e -= 1;
    }
    e
}

/// Writes the digit string `mantissa` (of a value in [10^e, 10^(e+1))) in plain or scientific form.
fn layout(negative: bool, mantissa: &str, e: i64) -> String {
    let sign = if negative { "-" } else { "" };
    if !is_plain(e, mantissa.len()) {
        let (head, tail) = mantissa.split_at(1);
        let dot = if tail.is_empty() { "" } else { "." };
        return format!("{sign}{head}{dot}{tail}e{e}");
    }
    let body = if e < 0 {
        format!("0.{}{mantissa}", "0".repeat((-e - 1) as usize))
    } else if e as usize + 1 >= mantissa.len() {
        format!("{mantissa}{}", "0".repeat(e as usize + 1 - mantissa.len()))
    } else {
        let (int, frac) = mantissa.split_at(e as usize + 1);
        format!("{int}.{frac}")
    };
    format!("{sign}{body}")
}

fn pow10(e: i64) -> Rational {
    let p = Integer::from(Integer::u_pow_u(10, e.unsigned_abs() as u32));
    if e >= 0 { Rational::from(p) } else { Rational::from((Integer::from(1), p)) }
}

/// Significant bits of the scaled quotient in [`nearest_f64`]: the 53 of a double's mantissa, a rounding
/// bit and one more, so the quotient always has bits to drop; everything below lives in the remainder.
const QUOTIENT_BITS: i64 = 55;

/// The double nearest to `value`, ties to even: what a correctly rounded IEEE conversion gives (Python's
/// `float(Fraction(p, q))`). `Rational::to_f64` truncates, which shows up as `4.189439999999999` for
/// 13092/3125.
///
/// Integer arithmetic only: the fraction is scaled by a power of two so the quotient has 55 or 56
/// bits, the remainder says whether anything was left below them, and the quotient is rounded to the
/// 53 bits of a normal double (fewer for a subnormal, whose last bit weighs 2^-1074). Beyond `f64::MAX`
/// (from `f64::MAX` plus half an ulp) the result is infinite; below 2^-1075 it is zero, with the sign.
pub fn nearest_f64(value: &Rational) -> f64 {
    if *value.numer() == 0 {
        return 0.0;
    }
    let magnitude = positive_nearest(&value.numer().as_abs(), value.denom());
    if *value.numer() < 0 { -magnitude } else { magnitude }
}

/// The double nearest to n/d for positive `n` and `d`.
fn positive_nearest(n: &Integer, d: &Integer) -> f64 {
    // n/d lies in [2^(nb-db-1), 2^(nb-db+1)), so n/d * 2^s lies in [2^54, 2^56).
    let s = QUOTIENT_BITS - (i64::from(n.significant_bits()) - i64::from(d.significant_bits()));
    let (quotient, remainder) = scaled_div_rem(n, d, s);
    // Below 2^56, so it fits; the wrapping conversion never wraps.
    let q = quotient.to_u64_wrapping();
    let q_bits = i64::from(u64::BITS - q.leading_zeros());
    // Keep 53 bits, or fewer where the result is subnormal: its last bit weighs 2^-1074 = 2^(drop - s).
    let drop = (q_bits - 53).max(s - 1074);
    compose(round_shift(q, drop, remainder != 0), drop - s)
}

/// floor(n * 2^s / d) and the remainder, shifting whichever side keeps both integers.
fn scaled_div_rem(n: &Integer, d: &Integer, s: i64) -> (Integer, Integer) {
    let shift = |x: &Integer| Integer::from(x << u32::try_from(s.unsigned_abs()).unwrap_or(u32::MAX));
    if s >= 0 { shift(n).div_rem_floor(d.clone()) } else { n.clone().div_rem_floor(shift(d)) }
}

/// q / 2^drop rounded to an integer, half to even; `sticky` says the true value lies a little above q
/// (a nonzero remainder), which breaks what would otherwise look like a tie.
fn round_shift(q: u64, drop: i64, sticky: bool) -> u64 {
    // q < 2^56, so from 58 dropped bits on the value is below a quarter and rounds to zero.
    if drop >= 58 {
        return 0;
    }
    // drop >= 2 (q has at least 55 bits and at most 53 are kept).
    let drop = drop as u32;
    let kept = q >> drop;
    let rest = q & ((1u64 << drop) - 1);
    let half = 1u64 << (drop - 1);
    let round_up = match rest.cmp(&half) {
        Ordering::Greater => true,
        Ordering::Equal => sticky || kept & 1 == 1,
        Ordering::Less => false,
    };
    kept + u64::from(round_up)
}

/// The double mantissa * 2^exp, for a mantissa of at most 2^53 already rounded to fit: normal, or
/// subnormal with exp = -1074; infinite beyond the largest exponent.
fn compose(mantissa: u64, exp: i64) -> f64 {
    const HIDDEN: u64 = 1 << 52;
    let (mut m, mut e) = (mantissa, exp);
    if m == 2 * HIDDEN {
        // Rounding carried into the next power of two.
        m = HIDDEN;
        e += 1;
    }
    if m < HIDDEN {
        // Subnormal (or zero): the exponent field is zero and the bits are the mantissa itself.
        debug_assert!(m == 0 || e == -1074);
        return f64::from_bits(m);
    }
    let biased = e + 52 + 1023;
    if biased >= 2047 {
        return f64::INFINITY;
    }
    f64::from_bits(((biased as u64) << 52) | (m - HIDDEN))
}

/// A long fraction abbreviated: defined in the engine, whose refusals shorten a long sum the
/// same way the output does.
pub use crate::engine::error::abbreviated;

/// The sign and the digits of an integer's decimal text.
fn split_sign(text: &str) -> (&str, &str) {
    text.strip_prefix('-').map_or(("", text), |digits| ("-", digits))
}

/// An exact value in JSON: the fraction for whoever needs it exactly, and the double nearest to it for
/// whoever plots or compares. Every JSON document uses this pair for an exact value.
///
/// `fraction` is `p/q`, or `n` when whole. `decimal` is [`finite_decimal`]; serde_json writes the
/// shortest text that reads back as that double (`4.18944`). Beyond a double's range (past
/// `f64::MAX`) no double stands for the value, and `decimal` is absent (serde_json would write `null`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exact {
    pub fraction: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decimal: Option<f64>,
}

impl Exact {
    pub fn of(value: &Rational) -> Self {
        Exact { fraction: value.to_string(), decimal: finite_decimal(value) }
    }
}

/// The decimal written beside an exact value in JSON and CSV: [`nearest_f64`], or `None` when that
/// is infinite (the value lies beyond a double's range), where the decimal is left out.
pub fn finite_decimal(value: &Rational) -> Option<f64> {
    Some(nearest_f64(value)).filter(|d| d.is_finite())
}

/// [`finite_decimal`] as a CSV cell: empty beyond a double's range.
pub fn finite_decimal_cell(value: &Rational) -> String {
    finite_decimal(value).map_or(String::new(), crate::render::values::decimal_cell)
}

/// A big integer for JSON, as a decimal string: JSON readers commonly parse numbers as doubles, which
/// would silently round counts beyond 2^53.
pub fn big(n: &Integer) -> String {
    n.to_string()
}

/// Fractional bits of the fixed-point logarithms below: far more than a double's 53, so the
/// double they round to is the one the exact value rounds to unless that value lies within about
/// 2^-240 of a tie between two doubles.
const LOG_BITS: u32 = 256;

/// atanh(n / d) times 2^LOG_BITS, for |n / d| <= 1/3: its series, the sum of t^(2k+1) / (2k+1),
/// each term rounded toward zero (about 80 terms, each past the last adding less than 2^-256).
fn atanh_fixed(n: &Integer, d: &Integer) -> Integer {
    // Summed for |t| and given t's sign: a negative power shifted down would never reach 0.
    let t = Integer::from(&*n.as_abs() << LOG_BITS) / d;
    let t2 = Integer::from(&t * &t) >> LOG_BITS;
    let (mut power, mut sum, mut k) = (t, Integer::new(), 1u32);
    while power != 0 {
        sum += Integer::from(&power / k);
        power = Integer::from(&power * &t2) >> LOG_BITS;
        k += 2;
    }
    if *n < 0 { -sum } else { sum }
}

/// atanh(1/3) = (ln 2) / 2 in [`atanh_fixed`]'s fixed point, found once.
fn half_ln2_fixed() -> &'static Integer {
    static HALF_LN2: std::sync::OnceLock<Integer> = std::sync::OnceLock::new();
    HALF_LN2.get_or_init(|| atanh_fixed(&Integer::from(1), &Integer::from(3)))
}

/// Information in bits, -log2 p, as the double nearest to it; infinite for p = 0.
///
/// Subtracting log2 of the numerator from log2 of the denominator in doubles loses the digits
/// the two share (about 30 ulps for fractions of 200 bits), so the logarithm is taken in fixed
/// point instead: with p = a/b and e = bits(b) - bits(a), -log2 p = e + log2 r, where
/// r = (b 2^bits(a)) / (a 2^bits(b)) lies in (1/2, 2), and log2 r = atanh(t) / atanh(1/3) with
/// t = (r - 1) / (r + 1), since ln r = 2 atanh(t) and ln 2 = 2 atanh(1/3).
pub fn bits(p: &Rational) -> f64 {
    if *p <= 0 {
        return f64::INFINITY;
    }
    let (a, b) = (p.numer(), p.denom());
    let e = i64::from(b.significant_bits()) - i64::from(a.significant_bits());
    let scaled_a = Integer::from(a << b.significant_bits());
    let scaled_b = Integer::from(b << a.significant_bits());
    let log_r = atanh_fixed(&Integer::from(&scaled_b - &scaled_a), &Integer::from(&scaled_b + &scaled_a));
    let ln2 = half_ln2_fixed();
    nearest_f64(&Rational::from((Integer::from(ln2 * e) + log_r, ln2.clone())))
}

/// log2(q / p): the active information of raising a success probability from p to q, as the
/// double nearest to it (one logarithm of the exact ratio, not a difference of two).
pub fn bits_ratio(q: &Rational, p: &Rational) -> f64 {
    if *q <= 0 || *p <= 0 {
        return bits(p) - bits(q);
    }
    bits(&Rational::from(p / q))
}

/// The double nearest to the square root of `v` (at least 0), ties to even: sqrt(n/d) lies in
/// [s, s + 1) / (d 2^k) with s = isqrt(n d 4^k); k grows until both ends round to the same double,
/// or s is the root exactly.
pub fn sqrt_nearest(v: &Rational) -> f64 {
    if *v <= 0 {
        return 0.0;
    }
    let nd = Integer::from(v.numer() * v.denom());
    // Start with a root of about 64 bits, and add 32 bits at a time.
    let mut k = 64u32.saturating_sub(nd.significant_bits() / 2);
    loop {
        let scaled = Integer::from(&nd << (2 * k));
        let (root, rest) = scaled.sqrt_rem(Integer::new());
        let below = Integer::from(v.denom() << k);
        let low = nearest_f64(&Rational::from((root.clone(), below.clone())));
        if rest == 0 || low == nearest_f64(&Rational::from((root + 1u32, below))) || k > 4096 {
            return low;
        }
        k += 32;
    }
}

/// An integer (a big one, or any primitive) with thousands separators: 568,630.
pub fn grouped(n: impl std::fmt::Display) -> String {
    let text = n.to_string();
    let (sign, digits) = split_sign(&text);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

/// A size in bytes as people read it, in decimal units to 3 significant digits:
/// "512 bytes", "6.14 kB", "41.3 MB", "3.60 GB".
pub fn bytes(n: u64) -> String {
    const UNITS: [(f64, &str); 4] = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")];
    match UNITS.iter().find(|(size, _)| n as f64 >= *size) {
        Some((size, unit)) => {
            let value = n as f64 / size;
            let decimals = if value < 10.0 {
                2
            } else if value < 100.0 {
                1
            } else {
                0
            };
            format!("{value:.decimals$} {unit}")
        }
        None => plural(n, "byte", "bytes"),
    }
}

/// A count and its noun: "1 solution", "1,204 solutions".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n), if n == 1 { one } else { many })
}

/// `value` (at least 0) to `places` decimal places, rounded down, or up when `up`: a bound
/// written in decimals stays a bound.
pub fn fixed_places(value: &Rational, places: u32, up: bool) -> String {
    let scale = Integer::from(Integer::u_pow_u(10, places));
    let scaled = Rational::from(value * &scale);
    let digits = if up { scaled.ceil() } else { scaled.floor() }.numer().to_string();
    let digits = format!("{digits:0>width$}", width = places as usize + 1);
    let (whole, fraction) = digits.split_at(digits.len() - places as usize);
    format!("{whole}.{fraction}")
}

/// `text` quoted as in a message (`{:?}`), or its start quoted and its length if it is long
/// (see [`crate::engine::error::long_text`]).
pub fn quoted(text: &str) -> String {
    match crate::engine::error::long_text(text) {
        Some((start, chars)) => format!("{start:?}... ({chars} characters)"),
        None => format!("{text:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_places_round_outward_as_asked() {
        let third = Rational::from((1, 3));
        assert_eq!(fixed_places(&third, 5, false), "0.33333");
        assert_eq!(fixed_places(&third, 5, true), "0.33334");
        assert_eq!(fixed_places(&Rational::from((1, 1000)), 2, true), "0.01");
        assert_eq!(fixed_places(&Rational::from((1, 1000)), 2, false), "0.00");
        assert_eq!(fixed_places(&Rational::from(1), 3, true), "1.000");
        assert_eq!(fixed_places(&Rational::from((5, 2)), 1, false), "2.5");
    }

    #[test]
    fn byte_sizes_read_in_decimal_units_to_three_digits() {
        assert_eq!(bytes(0), "0 bytes");
        assert_eq!(bytes(1), "1 byte");
        assert_eq!(bytes(999), "999 bytes");
        assert_eq!(bytes(6_144), "6.14 kB");
        assert_eq!(bytes(41_302_852), "41.3 MB");
        assert_eq!(bytes(203_092_587), "203 MB");
        assert_eq!(bytes(3_600_000_000), "3.60 GB");
        assert_eq!(bytes(u64::MAX), "18446744 TB");
    }

    /// P(one peg left) on the English board from the centre (README): 106 digits over 113.
    const ENGLISH_NUMER: &str = "1199434445296582124843390330050448489187793414865416664244913609530702129939321135991818154651495589139523";
    const ENGLISH_DENOM: &str = "44460319101616567634230320587073216069524414745085394870659684128213431479361308148743589068800000000000000000000";

    fn r(n: i64, d: i64) -> Rational {
        Rational::from((n, d))
    }

    fn int(text: &str) -> Integer {
        text.parse().expect("test literal")
    }

    fn english() -> Rational {
        Rational::from((int(ENGLISH_NUMER), int(ENGLISH_DENOM)))
    }

    fn pow(base: u32, exp: u32) -> Integer {
        Integer::from(Integer::u_pow_u(base, exp))
    }

    fn frac(n: Integer, d: Integer) -> Rational {
        Rational::from((n, d))
    }

    /// 2^exp as a fraction, for any sign of exp.
    fn two_to(exp: i32) -> Rational {
        Rational::from(1) << exp
    }

    fn factorial(n: u32) -> Integer {
        Integer::from(Integer::factorial(n))
    }

    // ---- decimal (moved from numfmt) ----

    #[test]
    fn decimals_are_rounded_from_the_fraction() {
        assert_eq!(decimal(&r(1, 3), 6), "0.333333");
        assert_eq!(decimal(&r(2, 3), 6), "0.666667");
        assert_eq!(decimal(&r(1, 8), 6), "0.125000");
        assert_eq!(decimal(&r(9, 200), 4), "0.04500");
        assert_eq!(decimal(&r(99995, 100000), 4), "1.000");
        assert_eq!(decimal(&r(31, 10), 3), "3.10");
        assert_eq!(decimal(&r(1, 1), 3), "1.00");
        assert_eq!(decimal(&r(0, 1), 3), "0");
        assert_eq!(decimal(&r(-1, 4), 2), "-0.25");
        assert_eq!(decimal(&r(1, 10_000_000_000), 3), "1.00e-10");
        assert_eq!(decimal(&r(42, 1_000_000), 3), "4.20e-5");
        assert_eq!(decimal(&r(1, 10_000_000_000), 1), "1e-10");
        assert_eq!(decimal(&r(123, 1000), 2), "0.12");
    }

    #[test]
    fn decimal_is_significant_exact() {
        for v in [r(1, 3), r(-7, 90000), english(), r(15, 1) * pow10(11), r(0, 1)] {
            for digits in [1u32, 4, 6, 10] {
                assert_eq!(decimal(&v, digits), significant_exact(&v, digits as usize));
            }
        }
    }

    #[test]
    fn decimal_ties_round_away_from_zero() {
        assert_eq!(decimal(&r(1, 8), 2), "0.13");
        assert_eq!(decimal(&r(-1, 8), 2), "-0.13");
        assert_eq!(decimal(&r(5, 2), 1), "3");
    }

    // ---- bits, grouped (moved from numfmt) ----

    #[test]
    fn bits_of_exact_powers_of_two() {
        assert_eq!(bits(&r(1, 128)), 7.0);
        assert_eq!(bits(&r(1, 1)), 0.0);
        assert!(bits(&r(0, 1)).is_infinite());
        let tiny = Rational::from((Integer::from(1), Integer::from(Integer::u_pow_u(2, 2000))));
        assert_eq!(bits(&tiny), 2000.0);
        assert_eq!(bits_ratio(&r(1, 2), &r(1, 8)), 2.0);
    }

    #[test]
    fn bits_of_the_english_probability() {
        assert_eq!(format!("{:.4}", bits(&english())), "25.1437");
    }

    /// The nearest doubles to -log2 p, from Python's `float(Decimal)` of the logarithm taken to
    /// 120 digits. A difference of the two logarithms in doubles gave 6.051856241920063 for the
    /// first (random play, hole-first, from A of the 21-hole triangle).
    #[test]
    fn bits_are_the_doubles_nearest_to_the_logarithm() {
        let hole_first_a = Rational::from((
            int("33202790883346482915071889874922874380779"),
            int("2202748166508647821352569405440000000000000"),
        ));
        assert_eq!(bits(&hole_first_a), 6.051856241920095);
        assert_eq!(bits(&english()), 25.143660657404276);
        assert_eq!(bits(&r(1, 3)), 1.584962500721156);
        assert_eq!(bits(&r(2, 3)), 0.5849625007211562);
        assert_eq!(bits(&r(3, 2)), -0.5849625007211562);
        assert_eq!(bits_ratio(&r(3, 4), &r(1, 4)), 1.584962500721156);
    }

    /// No double is nearer to the square root than the one given: the midpoints beside it
    /// square to either side of the value (a tie only where a midpoint is the root exactly).
    #[test]
    fn square_roots_are_the_nearest_doubles() {
        assert_eq!(sqrt_nearest(&r(5, 36)), 0.37267799624996495);
        assert_eq!(sqrt_nearest(&r(2, 1)), std::f64::consts::SQRT_2);
        assert_eq!(sqrt_nearest(&r(9, 4)), 1.5);
        assert_eq!(sqrt_nearest(&r(0, 1)), 0.0);
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        for round in 0..2_000 {
            let v = Rational::from((rng.integer(1 + round % 300), rng.integer(1 + round % 250)));
            let x = sqrt_nearest(&v);
            let below = (exact(x) + exact(x.next_down())) / 2u32;
            let above = (exact(x) + exact(x.next_up())) / 2u32;
            assert!(
                Rational::from(&below * &below) <= v && v <= Rational::from(&above * &above),
                "{v}: {x:e}"
            );
            let squared = Rational::from(exact(x).square_ref());
            assert_eq!(sqrt_nearest(&squared), x, "the root of {x:e} squared");
        }
    }

    #[test]
    fn grouped_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(3_145_728), "3,145,728");
        assert_eq!(plural(1, "layer", "layers"), "1 layer");
        assert_eq!(plural(1_204, "solution", "solutions"), "1,204 solutions");
        assert_eq!(grouped(568_630), "568,630");
        assert_eq!(grouped(324), "324");
        assert_eq!(grouped(-1_000), "-1,000");
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(-999), "-999");
        assert_eq!(grouped(1_234_567_890), "1,234,567,890");
    }

    // ---- nearest_f64 ----

    /// Expected values are Python's `float(Fraction(n, d))` (int / int true division, correctly rounded).
    #[test]
    fn nearest_f64_matches_python() {
        let cases = [
            (r(1, 3), 0.3333333333333333),
            (r(2, 3), 0.6666666666666666),
            (r(1, 10), 0.1),
            (r(-1, 10), -0.1),
            (r(13092, 3125), 4.18944),
            (r(530647768748392433, 135500669337600000), 3.9162003504667804),
            (r(22, 7), 3.142857142857143),
            (r(355, 113), 3.1415929203539825),
            (r(1, 1), 1.0),
            (r(-5, 1), -5.0),
            (english(), 2.6977639151784022e-08),
            (Rational::from((int(ENGLISH_DENOM), int(ENGLISH_NUMER))), 37067735.778275855),
            (-english(), -2.6977639151784022e-08),
            (frac(pow(10, 300), Integer::from(7)), 1.4285714285714286e+299),
            (frac(Integer::from(7), pow(10, 320)), 7e-320),
            (frac(factorial(170), factorial(100)), 7.776395497004937e+148),
            (frac(pow(3, 500), pow(2, 800) * pow(5, 100)), 6.912424408115943e-73),
            (frac(Integer::from(1), pow(2, 1070) * 3), 2.5e-323),
            (frac(Integer::from(1), pow(2, 1060) * 3), 2.698e-320),
            (frac(Integer::from(5), pow(2, 1074) * 3), 1e-323),
            (frac(pow(10, 22), Integer::from(3)), 3.3333333333333335e+21),
            (frac(Integer::from(1), pow(10, 22)), 1e-22),
            (
                frac(int("123456789012345678901234567890123456789"), int("987654321098765432109876543210")),
                124999998.8609375,
            ),
        ];
        for (value, expected) in cases {
            let expected: f64 = expected;
            let got = nearest_f64(&value);
            assert_eq!(got.to_bits(), expected.to_bits(), "{value}: {got:e} != {expected:e}");
        }
    }

    #[test]
    fn nearest_f64_fixes_truncation() {
        // rug's to_f64 gives 4.189439999999999 here.
        assert_eq!(nearest_f64(&r(13092, 3125)).to_string(), "4.18944");
        assert_eq!(nearest_f64(&r(530647768748392433, 135500669337600000)).to_string(), "3.9162003504667804");
    }

    #[test]
    fn nearest_f64_ties_go_to_even() {
        let two53 = Rational::from(pow(2, 53));
        // 2^53 + 1 lies halfway between 2^53 (even) and 2^53 + 2 (odd mantissa).
        assert_eq!(nearest_f64(&(two53.clone() + 1u32)), 9007199254740992.0);
        // 2^53 + 3 lies halfway between 2^53 + 2 (odd) and 2^53 + 4 (even).
        assert_eq!(nearest_f64(&(two53.clone() + 3u32)), 9007199254740996.0);
        // A hair above the first tie goes up.
        assert_eq!(nearest_f64(&(two53.clone() + r(1000001, 1000000))), 9007199254740994.0);
        // 1 + 2^-53: halfway between 1 and 1 + 2^-52.
        assert_eq!(nearest_f64(&(Rational::from(1) + two_to(-53))), 1.0);
        assert_eq!(nearest_f64(&(Rational::from(1) + two_to(-53) * 3u32)), 1.0 + 2f64.powi(-51));
        assert_eq!(nearest_f64(&-(Rational::from(1) + two_to(-53))), -1.0);
        // 0.1 has an even mantissa (…99a): ties on both sides come back to it. The next double up
        // (…99b) is odd: the tie above it goes on to …99c.
        let tenth = Rational::from_f64(0.1).expect("finite");
        let half_ulp = (Rational::from_f64(0.1f64.next_up()).expect("finite") - &tenth) / 2u32;
        assert_eq!(nearest_f64(&(tenth.clone() + &half_ulp)), 0.1);
        assert_eq!(nearest_f64(&(tenth.clone() - &half_ulp)), 0.1);
        let above = tenth + Rational::from(&half_ulp * 3u32);
        assert_eq!(nearest_f64(&above), 0.1f64.next_up().next_up());
    }

    #[test]
    fn nearest_f64_rounds_up_to_the_next_power_of_two() {
        // 1 - 2^-54 is halfway between 1 - 2^-53 (mantissa all ones, odd) and 1.
        assert_eq!(nearest_f64(&(Rational::from(1) - two_to(-54))), 1.0);
        assert_eq!(nearest_f64(&(Rational::from(1) - two_to(-55))), 1.0);
        assert_eq!(nearest_f64(&(Rational::from(1) - two_to(-53))), 1.0f64.next_down());
        assert_eq!(nearest_f64(&(two_to(600) - two_to(546))), 2f64.powi(600));
        assert_eq!(nearest_f64(&(two_to(-600) - two_to(-654))), 2f64.powi(-600));
    }

    #[test]
    fn nearest_f64_subnormals() {
        let min = f64::from_bits(1);
        assert_eq!(nearest_f64(&two_to(-1074)), min);
        // 2^-1075 is halfway between 0 (even) and the smallest subnormal.
        assert_eq!(nearest_f64(&two_to(-1075)), 0.0);
        assert_eq!(nearest_f64(&(two_to(-1075) + two_to(-1200))), min);
        assert_eq!(nearest_f64(&(two_to(-1075) * 3u32)), 2.0 * min);
        assert_eq!(nearest_f64(&(two_to(-1076) * 3u32)), min);
        assert_eq!(nearest_f64(&two_to(-1076)), 0.0);
        assert_eq!(nearest_f64(&two_to(-5000)), 0.0);
        assert_eq!(nearest_f64(&frac(Integer::from(1), pow(10, 400))), 0.0);
        assert!(nearest_f64(&-frac(Integer::from(1), pow(10, 400))).is_sign_negative());
        // The largest subnormal plus half its ulp rounds to the smallest normal (2^52 is even).
        let largest_subnormal = f64::from_bits((1 << 52) - 1);
        assert_eq!(nearest_f64(&(two_to(-1075) * (pow(2, 53) - 1u32))), f64::MIN_POSITIVE);
        assert_eq!(nearest_f64(&(two_to(-1076) * (pow(2, 54) - 3u32))), largest_subnormal);
        assert_eq!(nearest_f64(&two_to(-1022)), f64::MIN_POSITIVE);
        assert_eq!(nearest_f64(&(two_to(-1023) * 3u32 / 7u32)), 3.0 * 2f64.powi(-1023) / 7.0);
    }

    #[test]
    fn nearest_f64_overflows_to_infinity() {
        let max = Rational::from_f64(f64::MAX).expect("finite");
        let half_ulp = two_to(970);
        assert_eq!(nearest_f64(&max), f64::MAX);
        assert_eq!(nearest_f64(&(max.clone() + &half_ulp - two_to(900))), f64::MAX);
        assert_eq!(nearest_f64(&(max.clone() + &half_ulp)), f64::INFINITY);
        assert_eq!(nearest_f64(&-(max + &half_ulp)), f64::NEG_INFINITY);
        assert_eq!(nearest_f64(&two_to(1024)), f64::INFINITY);
        assert_eq!(nearest_f64(&Rational::from(pow(10, 400))), f64::INFINITY);
    }

    #[test]
    fn nearest_f64_of_zero() {
        assert_eq!(nearest_f64(&r(0, 1)).to_bits(), 0.0f64.to_bits());
    }

    /// xorshift64: enough randomness for a property test, no extra crate.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        /// A positive integer of 1 to `max_bits` bits, sometimes of a special shape (powers of two and
        /// their neighbours, which make ties and carries).
        fn integer(&mut self, max_bits: u64) -> Integer {
            let bits = 1 + self.below(max_bits) as u32;
            match self.below(8) {
                0 => Integer::from(1) << (bits - 1),
                1 => (Integer::from(1) << bits) - 1u32,
                2 => (Integer::from(1) << bits) + 1u32,
                _ => {
                    let mut n = Integer::new();
                    for _ in 0..bits.div_ceil(64) {
                        n = (n << 64) + self.next();
                    }
                    let n = n.keep_bits(bits) | (Integer::from(1) << (bits - 1));
                    n.max(Integer::from(1))
                }
            }
        }
    }

    fn exact(x: f64) -> Rational {
        Rational::from_f64(x).expect("finite")
    }

    /// `x` is the correctly rounded double of `p`: no neighbour is closer, and a tie goes to the even one.
    fn assert_nearest(p: &Rational, x: f64) {
        let max = exact(f64::MAX);
        if x.is_infinite() {
            assert!(Rational::from(p.abs_ref()) >= max + two_to(970), "{p} is not beyond f64::MAX");
            return;
        }
        let distance = (p - exact(x)).abs();
        for neighbour in [x.next_up(), x.next_down()] {
            if neighbour.is_infinite() {
                continue;
            }
            let other = (p - exact(neighbour)).abs();
            match distance.cmp(&other) {
                Ordering::Less => {}
                Ordering::Equal => {
                    assert_eq!(x.to_bits() & 1, 0, "tie at {p} not to even: {x:e} vs {neighbour:e}")
                }
                Ordering::Greater => panic!("{neighbour:e} is nearer to {p} than {x:e}"),
            }
        }
    }

    #[test]
    fn nearest_f64_is_nearest_on_random_fractions() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..10_000 {
            let n = rng.integer(200);
            let d = rng.integer(200);
            // Spread the values over the whole range, subnormals and overflow included.
            let shift = rng.below(2300) as i32 - 1150;
            let mut p = Rational::from((n, d)) << shift;
            if rng.below(2) == 0 {
                p = -p;
            }
            let x = nearest_f64(&p);
            assert_nearest(&p, x);
            assert_eq!(x.is_sign_negative(), p < 0);
        }
    }

    #[test]
    fn nearest_f64_gives_back_every_double() {
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        for _ in 0..10_000 {
            let x = f64::from_bits(rng.next());
            if x.is_finite() {
                assert_eq!(nearest_f64(&exact(x)).to_bits(), if x == 0.0 { 0 } else { x.to_bits() });
            }
        }
        for x in [f64::MAX, f64::MIN, f64::MIN_POSITIVE, f64::from_bits(1), f64::EPSILON, 0.1, -0.3] {
            assert_eq!(nearest_f64(&exact(x)), x);
        }
    }

    // ---- significant, significant_exact ----

    #[test]
    fn significant_floats() {
        assert_eq!(significant(2.69776e-8, 6), "2.69776e-8");
        assert_eq!(significant(7.76902e-5, 6), "7.76902e-5");
        assert_eq!(significant(0.000123457, 6), "0.000123457");
        assert_eq!(significant(0.00450789, 6), "0.00450789");
        assert_eq!(significant(3.91620, 6), "3.91620");
        assert_eq!(significant(3.9162003504667804, 6), "3.91620");
        assert_eq!(significant(1.0, 6), "1.00000");
        assert_eq!(significant(0.0, 6), "0");
        assert_eq!(significant(-0.0, 6), "0");
        assert_eq!(significant(123456.7, 6), "123457");
        assert_eq!(significant(1.5e12, 6), "1.50000e12");
        assert_eq!(significant(-2.5e-7, 6), "-2.50000e-7");
        assert_eq!(significant(123456789.0, 6), "123457000");
        assert_eq!(significant(1234567890.0, 6), "1.23457e9");
        assert_eq!(significant(f64::NAN, 6), "-");
        assert_eq!(significant(f64::INFINITY, 6), "inf");
        assert_eq!(significant(f64::NEG_INFINITY, 6), "-inf");
        assert_eq!(significant(f64::MAX, 3), "1.80e308");
        assert_eq!(significant(f64::from_bits(1), 3), "4.94e-324");
    }

    #[test]
    fn significant_exact_fractions() {
        assert_eq!(significant_exact(&english(), 6), "2.69776e-8");
        assert_eq!(significant_exact(&frac(Integer::from(776902), pow(10, 10)), 6), "7.76902e-5");
        assert_eq!(significant_exact(&frac(Integer::from(450789), pow(10, 8)), 6), "0.00450789");
        assert_eq!(significant_exact(&r(530647768748392433, 135500669337600000), 6), "3.91620");
        assert_eq!(significant_exact(&r(1, 1), 6), "1.00000");
        assert_eq!(significant_exact(&r(0, 1), 6), "0");
        assert_eq!(significant_exact(&r(1234567, 10), 6), "123457");
        assert_eq!(significant_exact(&Rational::from(15 * pow(10, 11)), 6), "1.50000e12");
        assert_eq!(significant_exact(&-english(), 3), "-2.70e-8");
    }

    #[test]
    fn rounding_carries_across_the_threshold() {
        // 9.999995e-5 rounds to 1.00000e-4, which is plain.
        assert_eq!(significant_exact(&frac(Integer::from(9999995), pow(10, 11)), 6), "0.000100000");
        assert_eq!(significant_exact(&frac(Integer::from(9999994), pow(10, 11)), 6), "9.99999e-5");
        // 999999999.5 rounds to 1.00000e9, which is scientific.
        assert_eq!(significant_exact(&r(9999999995, 10), 6), "1.00000e9");
        // 9999 rounds to 1.0e4, plain with three padding zeros; 99999 to 1.0e5, beyond them.
        assert_eq!(significant_exact(&r(9999, 1), 2), "10000");
        assert_eq!(significant_exact(&r(99999, 1), 2), "1.0e5");
    }

    #[test]
    fn digits_below_one_count_as_one() {
        assert_eq!(significant_exact(&r(26, 10), 0), "3");
        assert_eq!(significant(0.00026, 0), "0.0003");
        assert_eq!(significant(0.000026, 0), "3e-5");
    }

    /// For every decade and precision, exact fractions and floats pick the same style.
    #[test]
    fn one_threshold_for_floats_and_fractions() {
        for digits in [1usize, 3, 4, 6, 10] {
            for e in -12i64..20 {
                let exact_value = r(7, 3) * pow10(e);
                let float_value = nearest_f64(&exact_value);
                let from_fraction = significant_exact(&exact_value, digits);
                let from_float = significant(float_value, digits);
                assert_eq!(from_fraction.contains('e'), !is_plain(e, digits), "{from_fraction}");
                assert_eq!(from_float.contains('e'), from_fraction.contains('e'), "{from_float}");
                assert_eq!(from_float, from_fraction);
            }
        }
    }

    // ---- abbreviated ----

    #[test]
    fn abbreviated_long_fraction() {
        let value = english();
        assert_eq!(abbreviated(&value, 40), "119943…(106 digits)/444603…(113 digits)");
        assert_eq!(abbreviated(&-value.clone(), 40), "-119943…(106 digits)/444603…(113 digits)");
        assert_eq!(abbreviated(&value, 300), format!("{ENGLISH_NUMER}/{ENGLISH_DENOM}"));
        let inverse = Rational::from(1) / value;
        assert_eq!(abbreviated(&inverse, 40), "444603…(113 digits)/119943…(106 digits)");
    }

    #[test]
    fn abbreviated_short_fraction() {
        assert_eq!(abbreviated(&r(13092, 3125), 40), "13092/3125");
        assert_eq!(abbreviated(&r(13092, 3125), 10), "13092/3125");
        // Too long for 5 characters, but neither part gets shorter by abbreviation.
        assert_eq!(abbreviated(&r(13092, 3125), 5), "13092/3125");
        assert_eq!(abbreviated(&r(7, 1), 40), "7");
    }

    #[test]
    fn abbreviated_keeps_short_parts() {
        let tiny = frac(Integer::from(1), int(ENGLISH_DENOM));
        assert_eq!(abbreviated(&tiny, 40), "1/444603…(113 digits)");
        let whole = Rational::from(pow(10, 30) + 7u32);
        assert_eq!(abbreviated(&whole, 20), "100000…(31 digits)");
        // 18 digits: the abbreviation would be as long, so the part stays whole.
        let eighteen = frac(int("123456789012345679"), pow(2, 375));
        assert_eq!(abbreviated(&eighteen, 40), "123456789012345679/769570…(113 digits)");
        // 19 digits: the abbreviation is one character shorter, so it is used.
        let nineteen = frac(int("1234567890123456789"), pow(2, 375));
        assert_eq!(abbreviated(&nineteen, 40), "123456…(19 digits)/769570…(113 digits)");
    }

    // ---- Exact, big ----

    #[test]
    fn exact_serializes_fraction_and_decimal() {
        let json = serde_json::to_string(&Exact::of(&r(13092, 3125))).expect("serializable");
        assert_eq!(json, r#"{"fraction":"13092/3125","decimal":4.18944}"#);
        let json = serde_json::to_string(&Exact::of(&r(6, 3))).expect("serializable");
        assert_eq!(json, r#"{"fraction":"2","decimal":2.0}"#);
        let json = serde_json::to_string(&Exact::of(&r(-1, 3))).expect("serializable");
        assert_eq!(json, r#"{"fraction":"-1/3","decimal":-0.3333333333333333}"#);
        // Beyond a double's range there is no decimal: the key is absent, never `null`.
        let huge = Rational::from(pow(10, 400));
        let json = serde_json::to_string(&Exact::of(&-huge.clone())).expect("serializable");
        assert_eq!(json, format!(r#"{{"fraction":"-{}"}}"#, pow(10, 400)));
        assert_eq!(finite_decimal(&huge), None);
        assert_eq!(finite_decimal(&r(1, 3)), Some(1.0 / 3.0));
    }

    #[test]
    fn exact_of_the_english_probability() {
        let e = Exact::of(&english());
        assert_eq!(e.fraction, format!("{ENGLISH_NUMER}/{ENGLISH_DENOM}"));
        assert_eq!(e.decimal, Some(2.6977639151784022e-08));
    }

    #[test]
    fn big_integers_are_strings() {
        assert_eq!(big(&pow(10, 20)), "100000000000000000000");
        assert_eq!(big(&Integer::from(-42)), "-42");
        assert_eq!(
            serde_json::to_string(&big(&pow(2, 64))).expect("serializable"),
            r#""18446744073709551616""#
        );
    }
}
