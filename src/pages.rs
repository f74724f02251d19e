//! Blocks the library reads at random and keeps from layer to layer (the coach's table of
//! classes and its ranks). The library names them and nothing more: page sizes are the
//! process's choice, made by its allocator (the `pegchain` command's, see its `huge_pages`),
//! which may back such a block by huge pages where it backs fresh blocks by small ones.

use std::sync::OnceLock;

/// What the process does with such a block: it is given the block's start and its size in
/// bytes (its whole capacity, as it was allocated).
pub type Advice = fn(*const u8, usize);

static ADVICE: OnceLock<Advice> = OnceLock::new();

/// Sets what is done with every block the library reads at random and keeps, from now on
/// (the first call counts; with none, nothing is done).
pub fn on_random_access(advice: Advice) {
    let _ = ADVICE.set(advice);
}

/// Tells the process that `block` (all its capacity) is read at random and kept: called
/// where its capacity has grown and before its new memory is first written.
pub(crate) fn random_access<T>(block: &Vec<T>) {
    if let Some(advice) = ADVICE.get() {
        advice(block.as_ptr().cast(), block.capacity() * size_of::<T>());
    }
}
