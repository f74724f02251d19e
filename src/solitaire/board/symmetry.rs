//! The symmetry group of a board: every permutation of the holes that maps jumps onto jumps.
//!
//! It is found by a backtracking search over the jump structure, so a board loaded from a
//! file gets its true group, and nobody types a group in by hand. Positions are permuted
//! through per-byte lookup tables, which keeps canonical forms cheap in the hot loops.

use super::Board;
use crate::solitaire::pegs::Pegs;
use hashbrown::HashSet;

/// A permutation of holes: `perm[h]` is where hole `h` goes.
pub type Perm = Vec<u8>;

#[derive(Clone, Debug)]
pub struct SymmetryGroup {
    perms: Vec<Perm>,
    /// `tables[g][byte][value]`: the image under element g of the holes `value` marks in
    /// byte `byte` of a position.
    tables: Vec<Vec<[Pegs; 256]>>,
}

impl SymmetryGroup {
    /// All automorphisms of the board's jumps (the identity comes first).
    pub fn of_board(board: &Board) -> SymmetryGroup {
        SymmetryGroup::from_perms(automorphisms(board), board.hole_count())
    }

    /// The group with only the identity: no reduction at all.
    pub fn trivial(holes: usize) -> SymmetryGroup {
        SymmetryGroup::from_perms(vec![(0..holes as u8).collect()], holes)
    }

    fn from_perms(mut perms: Vec<Perm>, holes: usize) -> SymmetryGroup {
        perms.sort();
        let bytes = holes.div_ceil(8);
        let tables = perms
            .iter()
            .map(|p| {
                (0..bytes)
                    .map(|byte| {
                        let mut t = [Pegs::EMPTY; 256];
                        for (value, slot) in t.iter_mut().enumerate() {
                            let here = Pegs((value as u64) << (8 * byte)) & Pegs::full(holes);
                            *slot = here.holes().map(|h| p[h as usize]).collect();
                        }
                        t
                    })
                    .collect()
            })
            .collect();
        SymmetryGroup { perms, tables }
    }

    pub fn order(&self) -> usize {
        self.perms.len()
    }
    pub fn perms(&self) -> &[Perm] {
        &self.perms
    }

    /// The subgroup of elements that fix every hole in `holes`.
    pub fn stabilizer(&self, holes: Pegs) -> SymmetryGroup {
        let n = self.perms[0].len();
        let keep = self.perms.iter().filter(|p| holes.holes().all(|h| p[h as usize] == h));
        SymmetryGroup::from_perms(keep.cloned().collect(), n)
    }

    /// The image of a position under element `g`.
    #[inline]
    pub fn apply(&self, g: usize, pos: Pegs) -> Pegs {
        let mut out = Pegs::EMPTY;
        for (byte, table) in self.tables[g].iter().enumerate() {
            out |= table[(pos.0 >> (8 * byte) & 0xff) as usize];
        }
        out
    }

    /// The smallest image of a position: one representative per orbit.
    #[inline]
    pub fn canonical(&self, pos: Pegs) -> Pegs {
        (1..self.perms.len()).fold(pos, |best, g| best.min(self.apply(g, pos)))
    }

    /// How many distinct positions the orbit of `pos` holds: the group's order over the
    /// number of elements fixing `pos` (orbit-stabilizer), with no list of images.
    pub fn orbit_size(&self, pos: Pegs) -> u64 {
        let fixing = (0..self.perms.len()).filter(|&g| self.apply(g, pos) == pos).count();
        (self.perms.len() / fixing) as u64
    }

    /// The orbits of single holes, each sorted, ordered by their smallest hole.
    pub fn hole_orbits(&self) -> Vec<Vec<u8>> {
        let n = self.perms[0].len();
        let mut seen = vec![false; n];
        let mut orbits = Vec::new();
        for h in 0..n {
            if seen[h] {
                continue;
            }
            let mut orbit: Vec<u8> = self.perms.iter().map(|p| p[h]).collect();
            orbit.sort_unstable();
            orbit.dedup();
            for &o in &orbit {
                seen[o as usize] = true;
            }
            orbits.push(orbit);
        }
        orbits
    }

    /// An element taking hole `from` to hole `to`, if the two share an orbit.
    pub fn element_mapping(&self, from: u8, to: u8) -> Option<usize> {
        self.perms.iter().position(|p| p[from as usize] == to)
    }
}

/// A jump as a triple of holes, for set lookups.
type Triple = (u8, u8, u8);

/// Backtracking search for every hole permutation that maps the jump set onto itself.
fn automorphisms(board: &Board) -> Vec<Perm> {
    let n = board.hole_count();
    let jumps: HashSet<Triple> = board.jumps().iter().map(|j| (j.from, j.over, j.to)).collect();
    // Jumps touching each hole, to check a new assignment against the ones already made.
    let mut touching = vec![Vec::new(); n];
    // A hole's role counts (as from, over, to) must be kept by any symmetry.
    let mut roles = vec![(0u32, 0u32, 0u32); n];
    for j in board.jumps() {
        for h in [j.from, j.over, j.to] {
            touching[h as usize].push((j.from, j.over, j.to));
        }
        roles[j.from as usize].0 += 1;
        roles[j.over as usize].1 += 1;
        roles[j.to as usize].2 += 1;
    }
    let mut search = Search {
        order: search_order(&touching),
        roles,
        touching,
        jumps: &jumps,
        image: vec![None; n],
        used: vec![false; n],
        found: Vec::new(),
    };
    search.extend(0);
    search.found
}

/// The holes in breadth-first order through the jumps, so that every hole after the first
/// (of its connected part) shares a jump with one already placed and wrong choices fail
/// at once.
fn search_order(touching: &[Vec<Triple>]) -> Vec<usize> {
    let n = touching.len();
    let mut order = Vec::with_capacity(n);
    let mut queued = vec![false; n];
    for root in 0..n {
        if queued[root] {
            continue;
        }
        queued[root] = true;
        order.push(root);
        let mut i = order.len() - 1;
        while i < order.len() {
            for &(a, b, c) in &touching[order[i]] {
                for h in [a, b, c] {
                    if !queued[h as usize] {
                        queued[h as usize] = true;
                        order.push(h as usize);
                    }
                }
            }
            i += 1;
        }
    }
    order
}

/// The state of the backtracking search: holes placed so far (`image`) and the targets
/// they took (`used`).
struct Search<'a> {
    order: Vec<usize>,
    roles: Vec<(u32, u32, u32)>,
    touching: Vec<Vec<Triple>>,
    jumps: &'a HashSet<Triple>,
    image: Vec<Option<u8>>,
    used: Vec<bool>,
    found: Vec<Perm>,
}

impl Search<'_> {
    /// Every jump at `hole` whose holes are all placed maps onto a jump.
    fn consistent(&self, hole: usize) -> bool {
        self.touching[hole].iter().all(|&(a, b, c)| {
            match (self.image[a as usize], self.image[b as usize], self.image[c as usize]) {
                (Some(x), Some(y), Some(z)) => self.jumps.contains(&(x, y, z)),
                _ => true,
            }
        })
    }

    /// Places the hole at `depth` in the order on every target that keeps the jumps.
    fn extend(&mut self, depth: usize) {
        if depth == self.order.len() {
            self.found.push(self.image.iter().map(|i| i.unwrap()).collect());
            return;
        }
        let hole = self.order[depth];
        for target in 0..self.image.len() {
            if self.used[target] || self.roles[target] != self.roles[hole] {
                continue;
            }
            self.image[hole] = Some(target as u8);
            self.used[target] = true;
            if self.consistent(hole) {
                self.extend(depth + 1);
            }
            self.used[target] = false;
            self.image[hole] = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::builtin;

    #[test]
    fn computed_groups_have_the_expected_orders() {
        for n in 4..=10 {
            let b = builtin(&format!("triangle{n}")).unwrap();
            assert_eq!(SymmetryGroup::of_board(&b).order(), 6, "triangle{n}");
        }
        assert_eq!(SymmetryGroup::of_board(&builtin("english").unwrap()).order(), 8);
        assert_eq!(SymmetryGroup::of_board(&builtin("european").unwrap()).order(), 8);
    }

    #[test]
    fn triangle5_start_classes_are_the_four_of_seed_001() {
        let b = builtin("triangle5").unwrap();
        let g = SymmetryGroup::of_board(&b);
        let names: Vec<String> =
            g.hole_orbits().iter().map(|o| o.iter().map(|&h| b.hole_name(h)).collect()).collect();
        assert_eq!(names, ["AKO", "BCGJLN", "DFM", "EHI"]);
    }

    #[test]
    fn table_permutation_matches_bit_by_bit_permutation() {
        let b = builtin("english").unwrap();
        let g = SymmetryGroup::of_board(&b);
        let pos = Pegs(0x1_2345_6789) & b.full();
        for (e, p) in g.perms().iter().enumerate() {
            let slow = (0..33).filter(|&h| pos.0 >> h & 1 == 1).fold(0u64, |acc, h| acc | 1 << p[h]);
            assert_eq!(g.apply(e, pos), Pegs(slow));
        }
    }

    #[test]
    fn orbit_sizes_count_the_distinct_images() {
        let b = builtin("english").unwrap();
        let g = SymmetryGroup::of_board(&b);
        let positions =
            [b.full(), b.full().without(16), Pegs(0b111), Pegs(0x1_0203_0405) & b.full(), Pegs::single(3)];
        for pos in positions {
            let mut images: Vec<Pegs> = (0..g.order()).map(|e| g.apply(e, pos)).collect();
            images.sort_unstable();
            images.dedup();
            assert_eq!(g.orbit_size(pos), images.len() as u64, "{pos:?}");
        }
    }

    #[test]
    fn stabilizer_of_the_tip_is_the_reflection() {
        let b = builtin("triangle5").unwrap();
        let g = SymmetryGroup::of_board(&b);
        assert_eq!(g.stabilizer(Pegs::single(0)).order(), 2);
        let en = builtin("english").unwrap();
        let centre = en.find_hole("d4").unwrap();
        assert_eq!(SymmetryGroup::of_board(&en).stabilizer(Pegs::single(centre)).order(), 8);
    }
}
