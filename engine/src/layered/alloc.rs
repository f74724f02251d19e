//! Fallible growth for the engine's large vectors. The budget's projections are estimates,
//! and the process may be held to less memory than the budget was told (an address-space or
//! cgroup limit): an allocation the system refuses becomes `EngineError::AllocationFailed`,
//! a refusal the caller words, never an abort.

use crate::error::EngineError;
use std::mem::size_of;

/// Hands the memory the system allocator keeps for reuse back to the system. glibc keeps
/// freed blocks below its mapping threshold (which it raises to the largest block freed so
/// far, up to 32 MB) for later requests, so a step near its budget would hold memory freed by
/// the step before beside the blocks it maps afresh, and a layer's children twice while they
/// are filed into one block (see `Pending::receive`): up to a third over the budget on the
/// English board. Nothing where the allocator is not glibc's.
pub(super) fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: glibc's malloc_trim takes any pad and only returns free pages to the system.
        unsafe { malloc_trim(0) };
    }
}

/// Room for `additional` more elements (amortized: the vector may take more, as `push` would).
pub(super) fn reserve<T>(v: &mut Vec<T>, additional: usize) -> Result<(), EngineError> {
    v.try_reserve(additional).map_err(|_| failed::<T>(v.len().saturating_add(additional)))
}

/// Room for exactly `additional` more elements.
pub(super) fn reserve_exact<T>(v: &mut Vec<T>, additional: usize) -> Result<(), EngineError> {
    v.try_reserve_exact(additional).map_err(|_| failed::<T>(v.len().saturating_add(additional)))
}

/// Appends `x`, growing the vector fallibly when it is full (one comparison otherwise).
#[inline]
pub(super) fn push<T>(v: &mut Vec<T>, x: T) -> Result<(), EngineError> {
    if v.len() == v.capacity() {
        reserve(v, 1)?;
    }
    v.push(x);
    Ok(())
}

/// `n` zero limbs in one allocation of exactly that size. Zeroed by the allocator (calloc):
/// a large block comes fresh from the system already zero, so no pass writes it before its
/// users do, and its pages are first touched by the threads that fill them, in parallel
/// (a `resize` wrote every page from one thread first).
pub(super) fn zeroed(n: usize) -> Result<Vec<u64>, EngineError> {
    if n == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<u64>(n).map_err(|_| failed::<u64>(n))?;
    // SAFETY: the layout's size is not zero (n > 0).
    let block = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<u64>();
    if block.is_null() {
        return Err(failed::<u64>(n));
    }
    // SAFETY: `block` is a fresh allocation of the global allocator with the layout of
    // exactly n u64s, all zero bits (a valid u64 each), owned by nothing else.
    Ok(unsafe { Vec::from_raw_parts(block, n, n) })
}

fn failed<T>(elements: usize) -> EngineError {
    EngineError::AllocationFailed { bytes: (elements as u64).saturating_mul(size_of::<T>() as u64) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allocation_beyond_any_machine_is_a_refusal_not_an_abort() {
        assert_eq!(zeroed(usize::MAX / 16), Err(EngineError::AllocationFailed { bytes: u64::MAX / 16 * 8 }));
        let mut v: Vec<u64> = vec![1];
        assert!(matches!(reserve(&mut v, usize::MAX / 2), Err(EngineError::AllocationFailed { .. })));
        assert_eq!(v, [1], "a refused reservation leaves the vector as it was");
        push(&mut v, 2).unwrap();
        assert_eq!(zeroed(3).unwrap(), [0, 0, 0]);
        assert_eq!(v, [1, 2]);
    }
}
