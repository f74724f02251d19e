//! Exact numbers as chain files write them: integers, fractions (`1/8`), decimals (`0.1`)
//! and scientific notation (`2.5e-3`), each read as the exact rational it names.

use crate::render::number::quoted;
use rug::{Integer, Rational};

/// The largest exponent read, up or down: `1e999999999` would ask for a gigabyte of digits.
pub const MAX_EXPONENT: u32 = 10_000;

/// The most digits a number's mantissa may have.
pub const MAX_DIGITS: usize = 100_000;

/// Why a text is not read as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Not written as a number.
    NotANumber,
    /// A number, with an exponent past [`MAX_EXPONENT`].
    ExponentTooLarge,
    /// A number, with more than [`MAX_DIGITS`] digits.
    TooManyDigits,
}

impl NumberError {
    /// Why `text` was not read as `what` ("a probability"), in words.
    pub fn why(self, what: &str, text: &str) -> String {
        match self {
            NumberError::NotANumber => format!("not {what}: {}", quoted(text)),
            NumberError::ExponentTooLarge => {
                format!(
                    "{} has too large an exponent: exponents up to ±{MAX_EXPONENT} are taken",
                    quoted(text)
                )
            }
            NumberError::TooManyDigits => {
                format!("{} has too many digits: up to {MAX_DIGITS} are taken", quoted(text))
            }
        }
    }
}

/// The rational `text` names, or why it names none that is read.
pub fn parse(text: &str) -> Result<Rational, NumberError> {
    if let Some((n, d)) = text.split_once('/') {
        let (n, d) = (decimal(n)?, decimal(d)?);
        return if d == 0 { Err(NumberError::NotANumber) } else { Ok(n / d) };
    }
    decimal(text)
}

/// `[-+]digits[.digits][(e|E)[-+]digits]`, exactly.
fn decimal(text: &str) -> Result<Rational, NumberError> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let (negative, digits) = match mantissa.as_bytes().first() {
        Some(b'-') => (true, &mantissa[1..]),
        Some(b'+') => (false, &mantissa[1..]),
        _ => (false, mantissa),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let exponent_digits = exponent.map(|e| e.strip_prefix(['-', '+']).unwrap_or(e));
    if whole.is_empty() && fraction.is_empty()
        || !all_digits(whole)
        || !all_digits(fraction)
        || exponent_digits.is_some_and(|e| e.is_empty() || !all_digits(e))
    {
        return Err(NumberError::NotANumber);
    }
    // Well formed: an exponent that does not fit an i32 is past the bound as well.
    let exponent = exponent.map_or(Ok(0), |e| e.parse::<i32>()).map_err(|_| NumberError::ExponentTooLarge)?;
    if exponent.unsigned_abs() > MAX_EXPONENT {
        return Err(NumberError::ExponentTooLarge);
    }
    if whole.len() + fraction.len() > MAX_DIGITS {
        return Err(NumberError::TooManyDigits);
    }
    let numerator: Integer = format!("{whole}{fraction}").parse().map_err(|_| NumberError::NotANumber)?;
    let scale = exponent - fraction.len() as i32;
    let mut value = Rational::from(numerator);
    if scale >= 0 {
        value *= Integer::from(Integer::u_pow_u(10, scale as u32));
    } else {
        value /= Integer::from(Integer::u_pow_u(10, scale.unsigned_abs()));
    }
    Ok(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Rational {
        Rational::from((n, d))
    }

    #[test]
    fn numbers_are_read_exactly() {
        assert_eq!(parse("0.1"), Ok(q(1, 10)));
        assert_eq!(parse("1/8"), Ok(q(1, 8)));
        assert_eq!(parse("3"), Ok(q(3, 1)));
        assert_eq!(parse("2.5e-3"), Ok(q(1, 400)));
        assert_eq!(parse("2.5E+2"), Ok(q(250, 1)));
        assert_eq!(parse("-.5"), Ok(q(-1, 2)));
        assert_eq!(parse("1."), Ok(q(1, 1)));
        assert_eq!(
            parse("0.333333333333333333333"),
            Ok(Rational::from((Integer::from(333333333333333333333u128), Integer::from(10u128.pow(21)))))
        );
        for bad in ["", ".", "1/0", "abc", "1e", "1e+", "1e-x", "0x10", "1/2/3", "--1", "1 2", "inf", "NaN"] {
            assert_eq!(parse(bad), Err(NumberError::NotANumber), "{bad:?}");
        }
    }

    /// A number past the bounds is refused as such, not as "not a number".
    #[test]
    fn numbers_past_the_bounds_say_so() {
        assert_eq!(parse("1e-10000").map(|v| v.denom().significant_bits()), Ok(33_220));
        for big in ["1e10001", "1e-100000", "1e99999999999", "1/1e-20000"] {
            assert_eq!(parse(big), Err(NumberError::ExponentTooLarge), "{big:?}");
        }
        assert_eq!(parse(&"9".repeat(MAX_DIGITS + 1)), Err(NumberError::TooManyDigits));
        assert_eq!(
            NumberError::ExponentTooLarge.why("a probability", "1e-20000"),
            "\"1e-20000\" has too large an exponent: exponents up to ±10000 are taken"
        );
        assert_eq!(NumberError::NotANumber.why("a probability", "half"), "not a probability: \"half\"");
    }
}
