//! The command's allocator: the system's for small blocks; every large block a mapping of
//! its own, advised to take transparent huge pages (2 MB; `madvise(MADV_HUGEPAGE)`, which
//! this machine's kernel honours only where asked). The engine and the coach fill blocks of
//! many megabytes once each, and with 4 KB pages a sixth to a fifth of their time went to
//! page faults (the kernel zeroing and charging each page): a huge page takes one fault where
//! small pages took 512. The whole mapping is advised, so it stays one mapping and `mremap`
//! can still grow it in place or move it (advising a block's inside only, within glibc's
//! mapping, split it in three: each growth became a copy beside the old block, and a
//! 300 MB address-space limit that a run had fitted was passed). Where the kernel has no
//! huge pages, or none free, the advice is ignored and the block keeps small pages. Linux
//! only (`mremap`): elsewhere the command keeps the system allocator.
//!
//! No block is advised on a virtual machine whose kernel reports free memory to its host
//! (a virtio balloon with free page reporting, [`choose_page_size`]), except the blocks the
//! library names as read at random and kept ([`advise_random_access`]): the kernel hands the
//! host its free 2 MB blocks, which are exactly what a huge page is made of, so the first
//! write of each huge page waits for the host to back it again. On this project's machine
//! (2026-12-03) fresh huge pages were written at 0.07-0.28 GB/s against 0.8-4 GB/s for
//! small pages, and advising them made `exact --board english --start d4` take 1.1-1.4 times
//! as long (docs/performance.md, "Small pages where the host takes free memory back").

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// The system allocator, with large blocks mapped on their own and advised to take huge pages.
pub struct HugePages;

/// Blocks from this size on are mapped on their own: few enough that a system call each
/// costs nothing beside filling them, and each large enough to hold whole huge pages.
const LARGE: usize = 4 << 20;

/// Mappings start on a page of this size, which no block's alignment passes here.
const PAGE: usize = 4096;

/// Whether a block of `layout` is a mapping of its own (the same answer when it is freed or
/// grown, from the layout it was made with).
fn mapped(layout: &Layout) -> bool {
    layout.size() >= LARGE && layout.align() <= PAGE
}

// SAFETY: small blocks go to `System` with the caller's arguments; large ones are whole
// anonymous mappings of at least their size, page-aligned (so aligned for any layout
// `mapped` accepts), zero when made, freed and grown only as mappings.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match mapped(&layout) {
            true => map(layout.size()),
            // SAFETY: the caller's contract for `alloc`, passed on.
            false => unsafe { System.alloc(layout) },
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match mapped(&layout) {
            // A fresh anonymous mapping reads as zero.
            true => map(layout.size()),
            // SAFETY: as for `alloc`.
            false => unsafe { System.alloc_zeroed(layout) },
        }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        match mapped(&layout) {
            true => unmap(block, layout.size()),
            // SAFETY: as for `alloc`.
            false => unsafe { System.dealloc(block, layout) },
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract: `new_size` is nonzero and, rounded up to the
        // alignment, does not overflow.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (mapped(&layout), mapped(&new_layout)) {
            (true, true) => remap(block, layout.size(), new_size),
            // SAFETY: as for `alloc`.
            (false, false) => unsafe { System.realloc(block, layout, new_size) },
            // Across the line: a new block of the other kind, the bytes both hold copied.
            _ => {
                // SAFETY: `new_layout` is a valid layout of nonzero size (above).
                let grown = unsafe { self.alloc(new_layout) };
                if !grown.is_null() {
                    // SAFETY: both blocks hold at least the smaller size and do not overlap;
                    // the old one is freed with the layout it was made with.
                    unsafe {
                        std::ptr::copy_nonoverlapping(block, grown, layout.size().min(new_size));
                        self.dealloc(block, layout);
                    }
                }
                grown
            }
        }
    }
}

/// `size` bytes rounded up to whole pages.
fn pages(size: usize) -> usize {
    size.div_ceil(PAGE) * PAGE
}

/// A new anonymous mapping of at least `size` bytes, advised to take huge pages; null where
/// the system refuses it (the caller's allocation error, as from `System`).
fn map(size: usize) -> *mut u8 {
    let (protection, flags) = (libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS);
    // SAFETY: a new private anonymous mapping, at an address the kernel chooses.
    let block = unsafe { libc::mmap(std::ptr::null_mut(), pages(size), protection, flags, -1, 0) };
    if block == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    advise(block, size);
    block.cast()
}

/// `block`, a mapping made by `map` for `size` bytes, grown or shrunk to `new_size` (moved
/// where it cannot stay); null where the system refuses, the block then left as it was.
fn remap(block: *mut u8, size: usize, new_size: usize) -> *mut u8 {
    // SAFETY: `block` is a whole mapping of pages(size) bytes made by `map` and owned by the
    // caller; MAYMOVE lets the kernel move it, its contents kept.
    let moved = unsafe { libc::mremap(block.cast(), pages(size), pages(new_size), libc::MREMAP_MAYMOVE) };
    if moved == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    advise(moved, new_size);
    moved.cast()
}

/// Frees a mapping made by `map` (or `remap`) for `size` bytes.
fn unmap(block: *mut u8, size: usize) {
    // SAFETY: `block` is a whole mapping of pages(size) bytes, freed once by its owner.
    unsafe { libc::munmap(block.cast(), pages(size)) };
}

/// Whether large blocks are advised to take huge pages (see [`choose_page_size`]).
static ADVISE: AtomicBool = AtomicBool::new(true);

/// Advises huge pages from now on only where the kernel does not report its free memory to a
/// host (see the module's comment). Called once, before the work starts.
pub fn choose_page_size() {
    ADVISE.store(!reports_free_pages(Path::new("/sys/bus/virtio/devices")), Ordering::Relaxed);
}

/// Whether a virtio device under `devices` (the sysfs directory) is a memory balloon (device
/// id 5) that agreed to free page reporting (feature bit 5, `VIRTIO_BALLOON_F_REPORTING`;
/// sysfs lists the agreed features as one digit a bit, bit 0 first).
fn reports_free_pages(devices: &Path) -> bool {
    let Ok(devices) = std::fs::read_dir(devices) else { return false };
    devices.flatten().any(|device| {
        let read = |file| std::fs::read_to_string(device.path().join(file)).unwrap_or_default();
        read("device").trim() == "0x0005" && read("features").as_bytes().get(5) == Some(&b'1')
    })
}

/// Asks for huge pages over the whole mapping, before its pages are first touched (a huge
/// page is given at the first fault in its range), unless [`choose_page_size`] chose small
/// pages.
fn advise(block: *mut libc::c_void, size: usize) {
    if ADVISE.load(Ordering::Relaxed) {
        ask_for_huge_pages(block, size);
    }
}

/// Asks for huge pages over a block the library reads at random and keeps (the coach's table
/// of classes, see `pegchain::pages`), even where [`choose_page_size`] chose small pages:
/// its pages are written again layer after layer, so a huge page's slow first write is paid
/// once, and each look-up then finds its page in the TLB, where with small pages most missed
/// (the coach after four jumps on the English board: 0.91-0.97 of the time, 2026-12-05). A block
/// below [`LARGE`] lies inside glibc's heap and is left alone (see the module's comment); one
/// of LARGE or more is a whole mapping made by `map` (or `remap`).
pub fn advise_random_access(block: *const u8, size: usize) {
    if size >= LARGE {
        ask_for_huge_pages(block.cast_mut().cast(), size);
    }
}

/// `madvise(MADV_HUGEPAGE)` over the mapping of `size` bytes at `block`. A refusal (no huge
/// pages in this kernel, or a range that is no mapping) leaves it as it is.
fn ask_for_huge_pages(block: *mut libc::c_void, size: usize) {
    // SAFETY: the advice changes how the range's pages are backed, never their contents, and
    // the kernel refuses a range this process has not mapped.
    unsafe { libc::madvise(block, pages(size), libc::MADV_HUGEPAGE) };
}

#[cfg(test)]
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

    /// Whether the kernel gives huge pages where asked and only there (its `madvise` mode, as
    /// on this project's machines), which the tests of the advice need; says so where not.
    fn huge_pages_on_request() -> bool {
        let modes =
            std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
        if !modes.contains("[madvise]") {
            eprintln!("skipped: transparent huge pages are not in madvise mode here ({})", modes.trim());
        }
        modes.contains("[madvise]")
    }

    /// A large block is advised, and the advice is what makes it eligible: under the kernel's
    /// `madvise` mode (this project's machines), the same block from the system allocator
    /// alone is not.
    #[test]
    fn a_large_block_is_advised_to_take_huge_pages() {
        if !huge_pages_on_request() {
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

    /// A block the library reads at random is advised whatever page size was chosen for the
    /// rest (here a mapping that was not advised), and a block below the size line (glibc's)
    /// is left alone.
    #[test]
    fn a_block_read_at_random_is_advised_to_take_huge_pages() {
        if !huge_pages_on_request() {
            return;
        }
        for (size, advised) in [(64 << 20, true), (LARGE - PAGE, false)] {
            let (protection, flags) =
                (libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS);
            // SAFETY: a new private anonymous mapping, unmapped below.
            let block = unsafe { libc::mmap(std::ptr::null_mut(), size, protection, flags, -1, 0) };
            assert_ne!(block, libc::MAP_FAILED);
            assert_eq!(eligible(block as usize + size / 2), Some(false), "not advised when made");
            advise_random_access(block as *const u8, size);
            let middle = eligible(block as usize + size / 2);
            unmap(block.cast(), size);
            assert_eq!(middle, Some(advised), "{size} bytes");
        }
    }

    /// Small pages are chosen where a memory balloon reports free pages to its host, and only
    /// there: another device, or a balloon without the feature, or no virtio at all, keeps
    /// huge pages.
    #[test]
    fn small_pages_where_a_balloon_reports_free_pages() {
        let root = std::env::temp_dir().join(format!("pegchain-virtio-{}", std::process::id()));
        let device = |name: &str, id: &str, features: &str| {
            let dir = root.join(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("device"), format!("{id}\n")).unwrap();
            std::fs::write(dir.join("features"), format!("{features}\n")).unwrap();
        };
        assert!(!reports_free_pages(&root), "no virtio devices");
        device("virtio0", "0x0001", "0000010000");
        assert!(!reports_free_pages(&root), "a network card with bit 5");
        device("virtio1", "0x0005", "0110000100");
        assert!(!reports_free_pages(&root), "a balloon without free page reporting");
        device("virtio2", "0x0005", "0110010100");
        assert!(reports_free_pages(&root), "a balloon that reports free pages");
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// A block keeps its bytes as it grows and shrinks, across the size line both ways and
    /// as a mapping grown by `mremap`.
    #[test]
    fn blocks_keep_their_bytes_growing_and_shrinking_across_the_line() {
        let layout = |size| Layout::from_size_align(size, 8).unwrap();
        let first = 1 << 20;
        // SAFETY: each block is grown from, and freed with, the layout it was made with.
        unsafe {
            let mut block = HugePages.alloc(layout(first));
            block.write_bytes(7, first);
            let mut size = first;
            for new_size in [8 << 20, 64 << 20, 5 << 20, 2 << 20, 16 << 20] {
                block = HugePages.realloc(block, layout(size), new_size);
                assert!(!block.is_null());
                let kept = std::slice::from_raw_parts(block, first);
                assert!(kept.iter().all(|&b| b == 7), "{size} -> {new_size}");
                size = new_size;
            }
            HugePages.dealloc(block, layout(size));
        }
    }
}
