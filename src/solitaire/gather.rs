//! Adding a layer's masses into the next, a task a part of the next layer: each task reads
//! every jump in order, gathers those that lead into its part (a few positions' worth, in
//! the core's cache) and adds them, each row asked for ahead. Reading every jump once a
//! task costs less than writing each jump down for the task it leads to and reading it back.

use crate::engine::layered::limbs::{add_mul, prefetch};

/// Jumps gathered before they are added.
pub(crate) const GATHERED: usize = 512;

/// Jumps added before the row of a jump is asked for: memory answers while these are added.
const AHEAD: usize = 8;

/// A task's gathered jumps: for each jump into the task's part, the row it leads to, the
/// position it leaves (whose scaled mass the caller keeps) and its weight.
pub(crate) struct Gathered {
    jumps: Vec<(u32, u32, u64)>,
    kept: usize,
}

impl Gathered {
    pub(crate) fn new() -> Gathered {
        Gathered { jumps: vec![(0, 0, 0); GATHERED], kept: 0 }
    }

    /// Whether no jump fits until the gathered ones are added.
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        self.kept == GATHERED
    }

    /// Gathers a jump from position `from` into row `row` of the part, where that is one of
    /// its `rows` rows: `row` has the part's first row subtracted (wrapping), so a row before
    /// the part is past them too. No branch to mispredict: a jump outside the part is written
    /// and not kept. The caller adds the gathered jumps first where [`Gathered::is_full`].
    #[inline]
    pub(crate) fn jump(&mut self, row: u32, rows: u32, from: u32, weight: u64) {
        self.jumps[self.kept] = (row, from, weight);
        self.kept += (row < rows) as usize;
    }

    /// Adds the gathered jumps into the part's rows (`width` limbs each), each the weight
    /// times the scaled mass `scaled(from)` of the position it leaves, and empties the
    /// gathering.
    pub(crate) fn add_into<'a>(&mut self, part: &mut [u64], width: usize, scaled: impl Fn(u32) -> &'a [u64]) {
        let jumps = &self.jumps[..self.kept];
        for (n, &(row, from, weight)) in jumps.iter().enumerate() {
            // The rows are scattered over the part: each is asked for ahead.
            if let Some(&(ahead, _, _)) = jumps.get(n + AHEAD) {
                prefetch(&part[ahead as usize * width]);
                prefetch(&part[ahead as usize * width + width - 1]);
            }
            let at = row as usize * width;
            add_mul(&mut part[at..at + width], scaled(from), weight);
        }
        self.kept = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Jumps into the part are added, weighted, however many there are; jumps into rows
    /// before or after it are not.
    #[test]
    fn adds_the_jumps_into_its_part_and_no_other() {
        let (width, first, rows) = (2, 100u32, 7u32);
        let masses: Vec<[u64; 2]> = (0..600u64).map(|p| [p * 3 + 1, p % 2]).collect();
        let mut part = vec![0u64; rows as usize * width];
        let mut expected = part.clone();
        let mut gathered = Gathered::new();
        for n in 0..3000u64 {
            if gathered.is_full() {
                gathered.add_into(&mut part, width, |p| &masses[p as usize]);
            }
            // Five jumps a position, to rows around the part.
            let (from, row, weight) = ((n / 5) as u32, (n * 7919 % 13) as u32 + first - 3, n % 4 + 1);
            gathered.jump(row.wrapping_sub(first), rows, from, weight);
            if (first..first + rows).contains(&row) {
                let at = (row - first) as usize * width;
                add_mul(&mut expected[at..at + width], &masses[from as usize], weight);
            }
        }
        gathered.add_into(&mut part, width, |p| &masses[p as usize]);
        assert_eq!(part, expected);
        assert!(part.iter().filter(|&&l| l > 0).count() > 7);
    }
}
