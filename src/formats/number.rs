//! Exact numbers as chain files write them: integers, fractions (`1/8`), decimals (`0.1`)
//! and scientific notation (`2.5e-3`), each read as the exact rational it names.

use rug::{Integer, Rational};

/// The rational `text` names, or `None` if it is not a number.
pub fn parse(text: &str) -> Option<Rational> {
    if let Some((n, d)) = text.split_once('/') {
        let (n, d) = (decimal(n)?, decimal(d)?);
        return (d != 0).then(|| n / d);
    }
    decimal(text)
}

/// `[-+]digits[.digits][(e|E)[-+]digits]`, exactly.
fn decimal(text: &str) -> Option<Rational> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (negative, digits) = match mantissa.as_bytes().first()? {
        b'-' => (true, &mantissa[1..]),
        b'+' => (false, &mantissa[1..]),
        _ => (false, mantissa),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    // A bound on the exponent keeps "1e999999999" from asking for a gigabyte of digits.
    if exponent.unsigned_abs() > 10_000 || whole.len() + fraction.len() > 100_000 {
        return None;
    }
    let numerator: Integer = format!("{whole}{fraction}").parse().ok()?;
    let scale = exponent - fraction.len() as i32;
    let mut value = Rational::from(numerator);
    if scale >= 0 {
        value *= Integer::from(Integer::u_pow_u(10, scale as u32));
    } else {
        value /= Integer::from(Integer::u_pow_u(10, scale.unsigned_abs()));
    }
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Rational {
        Rational::from((n, d))
    }

    #[test]
    fn numbers_are_read_exactly() {
        assert_eq!(parse("0.1"), Some(q(1, 10)));
        assert_eq!(parse("1/8"), Some(q(1, 8)));
        assert_eq!(parse("3"), Some(q(3, 1)));
        assert_eq!(parse("2.5e-3"), Some(q(1, 400)));
        assert_eq!(parse("2.5E+2"), Some(q(250, 1)));
        assert_eq!(parse("-.5"), Some(q(-1, 2)));
        assert_eq!(parse("1."), Some(q(1, 1)));
        assert_eq!(
            parse("0.333333333333333333333"),
            Some(Rational::from((Integer::from(333333333333333333333u128), Integer::from(10u128.pow(21)))))
        );
        for bad in ["", ".", "1/0", "abc", "1e", "1e99999", "0x10", "1/2/3", "--1", "1 2", "inf", "NaN"] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }
}
