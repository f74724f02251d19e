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
    /// The board's symmetries: the automorphisms of its jumps that fix every hole in no
    /// jump (the identity comes first). `Board::new` found them, so this cannot fail.
    pub fn of_board(board: &Board) -> SymmetryGroup {
        SymmetryGroup::from_perms(board.symmetries().to_vec(), board.hole_count())
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

    /// The subgroup of elements that map `pos` onto itself (as a set: they may permute its
    /// pegs among themselves, and its empty holes).
    pub fn position_stabilizer(&self, pos: Pegs) -> SymmetryGroup {
        let n = self.perms[0].len();
        let keep =
            (0..self.perms.len()).filter(|&g| self.apply(g, pos) == pos).map(|g| self.perms[g].clone());
        SymmetryGroup::from_perms(keep.collect(), n)
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

    /// The smallest image of a position and an element giving it: `apply(g, pos)` is
    /// `canonical(pos)`.
    #[inline]
    pub fn canonical_with_element(&self, pos: Pegs) -> (Pegs, usize) {
        (1..self.perms.len()).fold((pos, 0), |best, g| {
            let image = self.apply(g, pos);
            if image < best.0 { (image, g) } else { best }
        })
    }

    /// Two elements one after the other: `compose(a, b)` applies `b`, then `a`, so `apply(compose(a, b), pos) == apply(a, apply(b, pos))`.
    pub fn compose(&self, a: usize, b: usize) -> usize {
        let (pa, pb) = (&self.perms[a], &self.perms[b]);
        let product: Perm = pb.iter().map(|&h| pa[h as usize]).collect();
        self.perms.iter().position(|p| *p == product).expect("a group is closed under composition")
    }

    /// The element undoing `g`.
    pub fn inverse(&self, g: usize) -> usize {
        (0..self.order()).find(|&h| self.compose(g, h) == 0).expect("every element has an inverse")
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

/// The most elements a symmetry group may have. The tool keeps every element (a table of
/// 16 KB per element on a 64-hole board) and puts each position in canonical form by trying
/// all of them, so a larger group would cost more than it saves. Real boards have 6 or 8.
pub const MAX_SYMMETRIES: usize = 1000;

/// The most partial maps the search may try. Pruning keeps real boards (and boards of many
/// alike parts) far below this; it bounds the time of any board whatever its shape.
pub const MAX_SEARCH_STEPS: u64 = 2_000_000;

/// Why a board's symmetry group was not found: it is too large for the tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooManySymmetries {
    /// The group has more than `MAX_SYMMETRIES` elements.
    Elements,
    /// The search tried more than `MAX_SEARCH_STEPS` partial maps.
    Steps,
}

impl std::fmt::Display for TooManySymmetries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TooManySymmetries::Elements => write!(
                f,
                "its symmetry group has more than {MAX_SYMMETRIES} elements, the most this tool supports"
            ),
            TooManySymmetries::Steps => write!(
                f,
                "its symmetry search needs more than {MAX_SEARCH_STEPS} steps, the most this tool allows"
            ),
        }
    }
}

/// Backtracking search for the hole permutations that map the jump set onto itself and fix
/// every hole that takes part in no jump.
///
/// Fixing those holes is exact: no jump ever changes them, and reducing by any subgroup of
/// the automorphism group is exact (orbits of a subgroup only split the full group's). The
/// full group would add every permutation of the isolated holes: k! elements for k of them.
/// The order reported for a board is the order of this group.
pub(crate) fn automorphisms(holes: usize, jumps: &[super::Jump]) -> Result<Vec<Perm>, TooManySymmetries> {
    search_within(holes, jumps, MAX_SEARCH_STEPS)
}

/// `automorphisms` with the most steps as a parameter, so that tests reach that refusal
/// with small boards.
fn search_within(
    holes: usize,
    jumps: &[super::Jump],
    max_steps: u64,
) -> Result<Vec<Perm>, TooManySymmetries> {
    let set: HashSet<Triple> = jumps.iter().map(|j| (j.from, j.over, j.to)).collect();
    // Jumps touching each hole, to check a new assignment against the ones already made.
    let mut touching = vec![Vec::new(); holes];
    // A hole's role counts (as from, over, to) must be kept by any symmetry.
    let mut roles = vec![(0u32, 0u32, 0u32); holes];
    for j in jumps {
        for h in [j.from, j.over, j.to] {
            touching[h as usize].push((j.from, j.over, j.to));
        }
        roles[j.from as usize].0 += 1;
        roles[j.over as usize].1 += 1;
        roles[j.to as usize].2 += 1;
    }
    for t in &mut touching {
        t.sort_unstable();
        t.dedup();
    }
    let mut search = Search {
        order: search_order(&touching),
        roles,
        touching,
        jumps: &set,
        image: vec![None; holes],
        used: vec![false; holes],
        found: Vec::new(),
        steps: 0,
        max_steps,
    };
    search.extend(0)?;
    Ok(search.found)
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

/// The state of the backtracking search: holes placed so far (`image`), the targets they
/// took (`used`), the elements found and the partial maps tried (`steps`).
struct Search<'a> {
    order: Vec<usize>,
    roles: Vec<(u32, u32, u32)>,
    touching: Vec<Vec<Triple>>,
    jumps: &'a HashSet<Triple>,
    image: Vec<Option<u8>>,
    used: Vec<bool>,
    found: Vec<Perm>,
    steps: u64,
    max_steps: u64,
}

impl Search<'_> {
    /// Every jump at `hole` maps, on its placed holes, onto some jump at the hole's image:
    /// a jump whose holes are all placed maps onto a jump, and one partly placed can still
    /// be completed. Checking partly placed jumps prunes a wrong choice at once rather than
    /// after the rest of its part of the board is placed.
    fn consistent(&self, hole: usize, target: usize) -> bool {
        self.touching[hole].iter().all(|&(a, b, c)| {
            let images = [a, b, c].map(|h| self.image[h as usize]);
            if let [Some(x), Some(y), Some(z)] = images {
                return self.jumps.contains(&(x, y, z));
            }
            self.touching[target]
                .iter()
                .any(|&(x, y, z)| [x, y, z].iter().zip(images).all(|(&t, i)| i.is_none_or(|i| i == t)))
        })
    }

    /// The targets hole `hole` may take: itself when no jump touches it (see
    /// `automorphisms`), else every unused hole of the same roles.
    fn targets(&self, hole: usize) -> Vec<usize> {
        if self.touching[hole].is_empty() {
            return vec![hole];
        }
        (0..self.image.len()).filter(|&t| !self.used[t] && self.roles[t] == self.roles[hole]).collect()
    }

    /// Places the hole at `depth` in the order on every target that keeps the jumps,
    /// stopping as soon as the group or the search passes its limit.
    fn extend(&mut self, depth: usize) -> Result<(), TooManySymmetries> {
        if depth == self.order.len() {
            if self.found.len() == MAX_SYMMETRIES {
                return Err(TooManySymmetries::Elements);
            }
            self.found.push(self.image.iter().map(|i| i.unwrap()).collect());
            return Ok(());
        }
        let hole = self.order[depth];
        for target in self.targets(hole) {
            self.steps += 1;
            if self.steps > self.max_steps {
                return Err(TooManySymmetries::Steps);
            }
            self.image[hole] = Some(target as u8);
            self.used[target] = true;
            let result = if self.consistent(hole, target) { self.extend(depth + 1) } else { Ok(()) };
            self.used[target] = false;
            self.image[hole] = None;
            result?;
        }
        Ok(())
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

    /// `copies` disjoint lines a-b-c with jumps both ways: order 2^copies * copies!.
    fn lines(copies: u8) -> Vec<super::super::Jump> {
        use super::super::Jump;
        (0..copies)
            .flat_map(|c| {
                let a = 3 * c;
                [Jump { from: a, over: a + 1, to: a + 2 }, Jump { from: a + 2, over: a + 1, to: a }]
            })
            .collect()
    }

    #[test]
    fn holes_in_no_jump_are_fixed() {
        let t4 = builtin("triangle4").unwrap();
        let perms = automorphisms(t4.hole_count() + 10, t4.jumps()).unwrap();
        assert_eq!(perms.len(), 6);
        assert!(perms.iter().all(|p| (10..20).all(|h| p[h] == h as u8)));
    }

    #[test]
    fn a_search_past_its_step_limit_is_refused_in_words() {
        let english = builtin("english").unwrap();
        let (holes, jumps) = (english.hole_count(), english.jumps());
        let steps = |max| search_within(holes, jumps, max).map(|found| found.len());
        // The English board's 8 symmetries take a few hundred steps: the limit is exact.
        let needed = (1..10_000).find(|&max| steps(max).is_ok()).unwrap();
        assert_eq!(steps(needed), Ok(8));
        assert_eq!(steps(needed - 1), Err(TooManySymmetries::Steps));
        assert!(needed < 10_000 && MAX_SEARCH_STEPS > 100 * needed);
        assert_eq!(
            TooManySymmetries::Steps.to_string(),
            "its symmetry search needs more than 2000000 steps, the most this tool allows"
        );
    }

    #[test]
    fn large_groups_stop_at_the_element_limit_after_few_steps() {
        assert_eq!(automorphisms(12, &lines(4)).unwrap().len(), 384);
        // 2^6 * 6! = 46,080 elements; 2^21 * 21! is astronomically many. Pruning keeps the
        // partial maps tried far below the step limit: the element limit is what stops both.
        for copies in [6, 21] {
            let refused = automorphisms(3 * copies as usize, &lines(copies)).unwrap_err();
            assert_eq!(refused, TooManySymmetries::Elements, "{copies} lines");
        }
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
    fn products_and_inverses_act_as_maps_do() {
        let b = builtin("english").unwrap();
        let g = SymmetryGroup::of_board(&b);
        let pos = Pegs(0x1_2345_6789) & b.full();
        for x in 0..g.order() {
            assert_eq!(g.compose(x, g.inverse(x)), 0, "element {x} and its inverse");
            for y in 0..g.order() {
                assert_eq!(g.apply(g.compose(x, y), pos), g.apply(x, g.apply(y, pos)));
            }
        }
        let (canonical, element) = g.canonical_with_element(pos);
        assert_eq!((canonical, g.apply(element, pos)), (g.canonical(pos), canonical));
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
