//! Exact numbers for people: a decimal computed from the fraction itself (not through a
//! float), information in bits, and thousands separators for big counts.

use rug::{Integer, Rational};

/// `value` to `digits` significant digits, rounded half up, in plain or scientific form.
pub fn decimal(value: &Rational, digits: u32) -> String {
    if *value == 0 {
        return "0".into();
    }
    let negative = *value < 0;
    let v = Rational::from(value.abs_ref());
    // The exponent e with 10^e <= v < 10^(e+1).
    let estimate = (v.numer().significant_bits() as f64 - v.denom().significant_bits() as f64)
        * std::f64::consts::LOG10_2;
    let mut e = estimate.floor() as i32 - 1;
    while pow10(e + 1) <= v {
        e += 1;
    }
    while pow10(e) > v {
        e -= 1;
    }
    let scale = digits as i32 - 1 - e;
    let scaled = v * pow10(scale);
    let mut mantissa = Integer::from((scaled + Rational::from((1, 2))).floor_ref());
    if mantissa.to_string().len() > digits as usize {
        // Rounding carried into a new digit (9.9995 -> 10.00).
        mantissa /= 10;
        e += 1;
    }
    let digits_str = mantissa.to_string();
    let sign = if negative { "-" } else { "" };
    if !(-6..=15).contains(&e) {
        let (head, tail) = digits_str.split_at(1);
        let tail = tail.trim_end_matches('0');
        let dot = if tail.is_empty() { "" } else { "." };
        return format!("{sign}{head}{dot}{tail}e{e}");
    }
    let body = if e < 0 {
        format!("0.{}{}", "0".repeat((-e - 1) as usize), digits_str)
    } else if (e as usize) + 1 >= digits_str.len() {
        format!("{digits_str}{}", "0".repeat(e as usize + 1 - digits_str.len()))
    } else {
        let (int, frac) = digits_str.split_at(e as usize + 1);
        format!("{int}.{frac}")
    };
    format!("{sign}{body}")
}

fn pow10(e: i32) -> Rational {
    let p = Integer::from(Integer::u_pow_u(10, e.unsigned_abs()));
    if e >= 0 { Rational::from(p) } else { Rational::from((Integer::from(1), p)) }
}

/// log2 of a positive integer, accurate to a double even for numbers beyond f64's range.
fn log2(n: &Integer) -> f64 {
    let bits = n.significant_bits();
    if bits <= 64 {
        return n.to_f64().log2();
    }
    let shift = bits - 64;
    Integer::from(n >> shift).to_f64().log2() + shift as f64
}

/// Information in bits, -log2 p; infinite for p = 0.
pub fn bits(p: &Rational) -> f64 {
    if *p <= 0 {
        return f64::INFINITY;
    }
    log2(p.denom()) - log2(p.numer())
}

/// log2(q / p): the active information of raising a success probability from p to q.
pub fn bits_ratio(q: &Rational, p: &Rational) -> f64 {
    bits(p) - bits(q)
}

/// A big integer with thousands separators: 568,630.
pub fn grouped(n: &Integer) -> String {
    let s = n.to_string();
    let (sign, digits) = s.strip_prefix('-').map_or(("", s.as_str()), |d| ("-", d));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> Rational {
        Rational::from((n, d))
    }

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
        assert_eq!(decimal(&r(1, 10_000_000_000), 3), "1e-10");
        assert_eq!(decimal(&r(123, 1000), 2), "0.12");
    }

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
    fn grouped_thousands() {
        assert_eq!(grouped(&Integer::from(568_630)), "568,630");
        assert_eq!(grouped(&Integer::from(324)), "324");
        assert_eq!(grouped(&Integer::from(-1_000)), "-1,000");
    }
}
