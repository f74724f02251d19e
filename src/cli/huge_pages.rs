//! The command's allocator: the system's, asking the kernel to back every large block with
//! transparent huge pages (2 MB; `madvise(MADV_HUGEPAGE)`, which this machine's kernel
//! honours only where asked). The engine and the coach fill blocks of many megabytes once
//! each, and with 4 KB pages a sixth to a fifth of their time went to page faults (the
//! kernel zeroing and charging each page): a huge page takes one fault where small pages
//! took 512. Where the kernel has no huge pages, or none free, the advice is ignored and
//! the block keeps small pages: nothing else changes.

use std::alloc::{GlobalAlloc, Layout, System};

/// The system allocator, with large blocks advised to take huge pages.
pub struct HugePages;

/// Blocks from this size on are advised: few enough that the advice costs nothing beside
/// filling them (a system call each), and each large enough to hold whole huge pages.
const LARGE: usize = 4 << 20;

/// The huge page size of x86-64 and of aarch64 with 4 KB pages.
const HUGE_PAGE: usize = 2 << 20;

// SAFETY: every call goes to `System` with the same arguments; `advise` only gives the kernel
// advice about pages of a block the call just returned.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc`, passed on.
        let block = unsafe { System.alloc(layout) };
        advise(block, layout.size());
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let block = unsafe { System.alloc_zeroed(layout) };
        advise(block, layout.size());
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(block, layout) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let grown = unsafe { System.realloc(block, layout, new_size) };
        if new_size > layout.size() {
            advise(grown, new_size);
        }
        grown
    }
}

/// Asks for huge pages over the whole huge pages inside a large block, before its pages
/// are first touched (a huge page is given at the first fault in its range).
fn advise(block: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    if !block.is_null() && size >= LARGE {
        let start = (block as usize).next_multiple_of(HUGE_PAGE);
        let end = (block as usize + size) / HUGE_PAGE * HUGE_PAGE;
        if end > start {
            // SAFETY: [start, end) lies inside the block just allocated, which this process
            // owns; the advice changes how its pages are backed, never their contents. A
            // refusal (no huge pages in this kernel) leaves the block as it is.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (block, size);
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// Whether the kernel counts the page at `address` eligible for huge pages (its mapping's
    /// `THPeligible` in /proc/self/smaps), if it says.
    fn eligible(address: usize) -> Option<bool> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_once(' ').and_then(|(r, _)| r.split_once('-'));
            match range.map(|(a, b)| (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))) {
                Some((Ok(from), Ok(to))) => inside = (from..to).contains(&address),
                _ if inside && line.starts_with("THPeligible:") => return Some(line.ends_with('1')),
                _ => {}
            }
        }
        None
    }

    /// A large block is advised, and the advice is what makes it eligible: under the kernel's
    /// `madvise` mode (this project's machines), the same block from the system allocator
    /// alone is not.
    #[test]
    fn a_large_block_is_advised_to_take_huge_pages() {
        let modes =
            std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
        if !modes.contains("[madvise]") {
            eprintln!("skipped: transparent huge pages are not in madvise mode here ({})", modes.trim());
            return;
        }
        let layout = Layout::from_size_align(64 << 20, 8).unwrap();
        for (advised, allocator) in [(true, &HugePages as &dyn GlobalAlloc), (false, &System)] {
            // SAFETY: a layout of nonzero size; the block is freed by the allocator that made it.
            let block = unsafe { allocator.alloc_zeroed(layout) };
            assert!(!block.is_null());
            let middle = eligible(block as usize + (32 << 20));
            unsafe { allocator.dealloc(block, layout) };
            assert_eq!(middle, Some(advised), "advised: {advised}");
        }
    }
}
