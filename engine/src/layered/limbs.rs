//! Fixed-width big numbers as little-endian `u64` limbs in flat arenas: the engine's
//! numerators live here instead of one heap allocation per state.

use rug::Integer;
use rug::integer::Order;

/// Asks for the cache line holding `item`, without waiting for it: for reads known a few
/// steps ahead, scattered over an arena (a cache miss each otherwise). A hint: it reads
/// nothing and never faults, whatever the address.
#[inline(always)]
pub fn prefetch<T>(item: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it reads nothing and faults on no address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(item.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// `$f::<W>(args)` for a number of `$limbs` limbs from 1 to 8 (a loop the compiler unrolls for
/// each width), `$general` past them: one dispatch for every unrolled sum.
macro_rules! unrolled {
    ($limbs:expr, $f:ident($($arg:expr),*), $general:expr) => {
        match $limbs {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            6 => $f::<6>($($arg),*),
            7 => $f::<7>($($arg),*),
            8 => $f::<8>($($arg),*),
            _ => $general,
        }
    };
}

/// The limbs of `src` without its high zero limbs.
#[inline]
fn significant(src: &[u64]) -> &[u64] {
    &src[..src.iter().rposition(|&l| l != 0).map_or(0, |top| top + 1)]
}

/// dst += src * w. The caller sized `dst` so that the sum fits (checked in debug builds);
/// `src` may be wider than `dst` as long as its extra high limbs are zero. A weight of one
/// (every jump under uniform play) is an addition, with no multiplication.
#[inline]
pub fn add_mul(dst: &mut [u64], src: &[u64], w: u64) {
    if w == 1 {
        return add(dst, src);
    }
    let src = significant(src);
    assert!(src.len() <= dst.len(), "limb arena overflow");
    let mut carry = 0u128;
    for (d, &s) in dst.iter_mut().zip(src) {
        let t = *d as u128 + s as u128 * w as u128 + carry;
        *d = t as u64;
        carry = t >> 64;
    }
    for d in dst[src.len()..].iter_mut() {
        if carry == 0 {
            break;
        }
        let t = *d as u128 + carry;
        *d = t as u64;
        carry = t >> 64;
    }
    debug_assert_eq!(carry, 0, "limb arena overflow");
}

/// dst += src: [`add_mul`] by one (a jump's weight under uniform play), with no
/// multiplication, unrolled for `src` of up to 8 limbs.
#[inline(always)]
fn add(dst: &mut [u64], src: &[u64]) {
    let src = if src.len() > dst.len() { significant(src) } else { src };
    assert!(src.len() <= dst.len(), "limb arena overflow");
    let (low, high) = dst.split_at_mut(src.len());
    let mut carry = unrolled!(src.len(), add_of(low, src), add_limbs(low, src));
    for d in high {
        if !carry {
            break;
        }
        (*d, carry) = d.overflowing_add(1);
    }
    debug_assert!(!carry, "limb arena overflow");
}

/// dst += src for both of `W` limbs: whether it carried out of the top limb.
#[inline(always)]
fn add_of<const W: usize>(dst: &mut [u64], src: &[u64]) -> bool {
    let (dst, src): (&mut [u64; W], &[u64; W]) = (dst.try_into().unwrap(), src.try_into().unwrap());
    add_limbs(dst, src)
}

/// dst += src for both of one length: whether it carried out of the top limb.
#[inline(always)]
fn add_limbs(dst: &mut [u64], src: &[u64]) -> bool {
    let mut carry = false;
    for (d, &s) in dst.iter_mut().zip(src) {
        let (t, c1) = d.overflowing_add(s);
        let (t, c2) = t.overflowing_add(carry as u64);
        *d = t;
        carry = c1 | c2;
    }
    carry
}

/// dst += src * w for a `dst` one limb wider than `src` (a sum of values of `src`'s width,
/// sized by the caller to hold every addend): [`add_mul`] with the loop unrolled for widths
/// up to 8 limbs, where a sum of many small numbers spends its time.
#[inline(always)]
pub fn add_mul_into_wider(dst: &mut [u64], src: &[u64], w: u64) {
    unrolled!(src.len(), add_mul_of(dst, src, w), add_mul(dst, src, w))
}

/// [`add_mul_into_wider`] for `src` of `W` limbs.
#[inline(always)]
fn add_mul_of<const W: usize>(dst: &mut [u64], src: &[u64], w: u64) {
    let (low, high) = dst.split_at_mut(W);
    let (low, src): (&mut [u64; W], &[u64; W]) = (low.try_into().unwrap(), src.try_into().unwrap());
    if w == 1 {
        high[0] += add_limbs(low, src) as u64;
        return;
    }
    let mut carry = 0u128;
    for (d, &s) in low.iter_mut().zip(src) {
        let t = *d as u128 + s as u128 * w as u128 + carry;
        *d = t as u64;
        carry = t >> 64;
    }
    // The sum fits `dst` and every addend is non-negative, so the top limb never overflows.
    high[0] += carry as u64;
}

/// dst = src * f (dst longer than src; its extra limbs receive the carry).
#[inline]
pub fn mul_into(dst: &mut [u64], src: &[u64], f: u64) {
    dst.fill(0);
    add_mul(dst, src, f);
}

/// dst = dst * f, in place: `dst`'s high limbs (zero) take the product's.
#[inline]
pub fn mul_in_place(dst: &mut [u64], f: u64) {
    let mut carry = 0u64;
    for limb in dst.iter_mut() {
        let product = u128::from(*limb) * u128::from(f) + u128::from(carry);
        (*limb, carry) = (product as u64, (product >> 64) as u64);
    }
    debug_assert_eq!(carry, 0, "a number too narrow for its product");
}

/// dst = src, for a zeroed `dst`; as in `add_mul`, `src` may be wider than `dst` as long as
/// its extra high limbs are zero (a merged bucket is one limb wider than its numbers need).
#[inline]
pub fn copy_into(dst: &mut [u64], src: &[u64]) {
    if src.len() <= dst.len() {
        dst[..src.len()].copy_from_slice(src);
        return;
    }
    let src = significant(src);
    assert!(src.len() <= dst.len(), "limb arena overflow");
    dst[..src.len()].copy_from_slice(src);
}

pub fn to_integer(limbs: &[u64]) -> Integer {
    Integer::from_digits(limbs, Order::Lsf)
}

/// Writes `value` (non-negative, fitting) into `dst`.
pub fn write(dst: &mut [u64], value: &Integer) {
    assert!(value.significant_digits::<u64>() <= dst.len(), "value does not fit the limb width");
    value.write_digits(dst, Order::Lsf);
}

/// How many limbs a number of `bits` bits needs (at least one).
pub fn limbs_for(bits: u32) -> usize {
    (bits as usize).div_ceil(64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_mul_agrees_with_integer_arithmetic() {
        let a = Integer::from(Integer::u_pow_u(3, 200)) + 12345;
        let b = Integer::from(Integer::u_pow_u(7, 90));
        let mut dst = vec![0u64; 6];
        write(&mut dst, &b);
        let mut src = vec![0u64; 5];
        write(&mut src, &a);
        add_mul(&mut dst, &src, u64::MAX);
        assert_eq!(to_integer(&dst), Integer::from(&b + &a * u64::MAX));
        // The unrolled widths, and one past them, agree with the general loop.
        for width in 1..=9 {
            let src: Vec<u64> = (0..width as u64).map(|k| u64::MAX - k).collect();
            let (mut sum, mut unrolled) = (vec![0u64; width + 1], vec![0u64; width + 1]);
            for w in [1, 1 << 40, 3] {
                add_mul(&mut sum, &src, w);
                add_mul_into_wider(&mut unrolled, &src, w);
            }
            assert_eq!(unrolled, sum, "width {width}");
            assert_eq!(to_integer(&unrolled), to_integer(&src) * ((1u64 << 40) + 4));
        }
        let mut out = vec![0u64; 6];
        mul_into(&mut out, &src, 1 << 40);
        let mut in_place = src.clone();
        in_place.resize(6, 0);
        mul_in_place(&mut in_place, 1 << 40);
        assert_eq!(in_place, out);
        assert_eq!(to_integer(&in_place), to_integer(&src) * (1u64 << 40));
        let mut narrow = vec![0u64; 4];
        copy_into(&mut narrow, &[5, 0, 7, 0, 0]);
        assert_eq!(narrow, [5, 0, 7, 0]);
        assert_eq!(
            to_integer(&out),
            Integer::from(Integer::u_pow_u(3, 200)) * (1u64 << 40) + 12345u64 * (1 << 40)
        );
    }

    /// Adding by weight one (no multiplication) agrees with integer arithmetic for every
    /// unrolled width and two past them: into a `dst` as wide, with a carry out of every limb
    /// but the top; into a wider one, the carry running through its high limbs; and from a
    /// `src` wider than `dst` whose extra limbs are zero.
    #[test]
    fn adding_by_weight_one_agrees_with_integer_arithmetic() {
        for width in 1..=10 {
            let top = width - 1;
            let src: Vec<u64> = (0..width).map(|k| if k == top { 1 } else { u64::MAX - k as u64 }).collect();
            let start: Vec<u64> = (0..width).map(|k| if k == top { 0 } else { u64::MAX }).collect();
            let sum = to_integer(&start) + to_integer(&src);
            let mut same = start.clone();
            add_mul(&mut same, &src, 1);
            assert_eq!(to_integer(&same), sum, "width {width}");

            let mut wider: Vec<u64> = vec![u64::MAX; width + 1];
            wider.push(0);
            let one: Vec<u64> = (0..width).map(|k| u64::from(k == 0)).collect();
            add_mul(&mut wider, &one, 1);
            assert_eq!(to_integer(&wider), Integer::from(1) << (64 * (width as u32 + 1)), "width {width}");

            let mut narrow = start.clone();
            let padded: Vec<u64> = src.iter().copied().chain([0, 0]).collect();
            add_mul(&mut narrow, &padded, 1);
            assert_eq!(to_integer(&narrow), sum, "width {width}");
        }
    }
}
