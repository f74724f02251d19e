//! The coach's search: the positions a root can reach, layer by layer, one a class below the
//! root, each with its jumps as indices into the next layer, so the passes after it need no
//! move generation and no look-up.

use super::layers::{Edge, EdgeCode, Layer};
use super::{Coach, SEARCH_CHUNK};
use crate::error::Error;
use crate::solitaire::exact::Stage;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::slots::{Full, SharedSlots};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How many jumps ahead the search asks memory for the slot of a jump's class, as it puts
/// each class's rank in its jumps.
const REMAP_AHEAD: usize = 48;

/// How many positions ahead the search finds a position's children and asks memory for their
/// slots, before it looks them up (see [`Coach::piece_of`]).
const LOOKUP_AHEAD: usize = 2;

/// The lists of children the search holds at once: the one looked up and those ahead.
const RING: usize = LOOKUP_AHEAD + 1;

/// The jumps of a piece of a layer, found side by side with the other pieces: where each
/// position's jumps start (and where the last ends) and the jumps, their child the slot of
/// the class they lead to in the layer's [`SharedSlots`] until the layer is ranked.
struct Piece {
    starts: Vec<u32>,
    edges: Vec<Edge>,
    /// Each jump's index, where the policy weighs jumps (see [`Layer`]).
    jumps: Option<Vec<u16>>,
}

impl Piece {
    /// An empty piece with room for `positions` and `edges` jumps, keeping each jump's index
    /// if `weighted`.
    fn new(positions: usize, edges: usize, weighted: bool) -> Piece {
        let mut starts = Vec::with_capacity(positions + 1);
        starts.push(0);
        Piece { starts, edges: Vec::with_capacity(edges), jumps: weighted.then(|| Vec::with_capacity(edges)) }
    }

    /// Adds a position's jumps, each a class, the jump and the element onto the class, each
    /// class to `met`: the number of classes it added there.
    fn add(&mut self, met: &SharedSlots, code: EdgeCode, jumps: &[(Pegs, u16, u16)]) -> Result<usize, Full> {
        let mut added = 0;
        for &(class, jump, element) in jumps {
            let (new, child) = met.slot_or_add(class)?;
            added += usize::from(new);
            self.edges.push(code.pack(child, element as usize));
            if let Some(kept) = &mut self.jumps {
                kept.push(jump);
            }
        }
        self.starts.push(self.edges.len() as u32);
        Ok(added)
    }
}

/// The room a search is made with, a position's worth of jumps (for a piece) and of classes
/// (for the layer's table), in sixteenths, from the layer before: made large enough at once,
/// a piece's vectors are not copied as they grow, nor the layer searched again.
#[derive(Clone, Copy)]
struct Room {
    edges: usize,
    classes: usize,
}

impl Default for Room {
    fn default() -> Room {
        Room { edges: 16, classes: 16 }
    }
}

impl Room {
    /// The room a layer of `positions` with `edges` jumps into `classes` classes took, an
    /// eighth more.
    fn per_position(edges: usize, classes: usize, positions: usize) -> Room {
        let per = |n: usize| (18 * n).div_ceil(positions.max(1)).max(1);
        Room { edges: per(edges), classes: per(classes) }
    }

    fn edges(self, positions: usize) -> usize {
        positions * self.edges / 16
    }

    fn classes(self, positions: usize) -> usize {
        positions * self.classes / 16
    }
}

impl Coach<'_> {
    /// The positions `root` can reach, by layers: `layers[k]` has k pegs fewer; below the
    /// root, one position per class of the whole group.
    pub(super) fn layers_from(&self, root: Pegs) -> Result<Vec<Layer>, Error> {
        let mut layers = vec![Layer::of(vec![root])];
        let (mut total, mut edges) = (1, 0);
        let mut expected = Room::default();
        let mut met = SharedSlots::default();
        let hole_bits = u64::BITS - self.board.full().0.leading_zeros();
        loop {
            let layer = layers.last_mut().expect("the root's layer");
            // A future too large is refused as soon as the search of a layer finds more jumps
            // than it may: a layer's jumps are numbered in 32 bits, whatever limit a caller sets.
            let layer_most = self.max_positions.saturating_mul(2).min(u32::MAX as usize);
            let most = layer_most.min(self.max_positions.saturating_mul(10).saturating_sub(edges));
            let (mut pieces, classes) = self.jumps_of(&layer.positions, most, expected, &mut met)?;
            let count: usize = pieces.iter().map(|p| p.edges.len()).sum();
            // The next layer's pieces and table are made about as large as this layer's
            // turned out.
            expected = Room::per_position(count, classes, layer.positions.len());
            edges += count;
            // The classes in order (positions near each other in a layer have children near
            // each other, which the values passes read), and each jump's child its class's
            // index among them.
            let next = met.rank(classes, hole_bits);
            pieces.par_iter_mut().for_each(|p| {
                // The slots are read at random: each is asked for some jumps ahead.
                let code = self.code;
                for k in 0..p.edges.len() {
                    if let Some(&ahead) = p.edges.get(k + REMAP_AHEAD) {
                        met.prefetch_slot(code.child(ahead));
                    }
                    let slot = code.child(p.edges[k]);
                    p.edges[k] = code.with_child(p.edges[k], met.rank_at(slot));
                }
            });
            for p in pieces {
                layer.edges.starts.push(p.starts);
                layer.edges.parts.push(p.edges);
                layer.jumps.push(p.jumps.unwrap_or_default());
            }
            if count == 0 {
                return Ok(layers);
            }
            let next = Layer::of(next);
            self.report(Stage::CoachFuture, &next);
            total += next.positions.len();
            if total > self.max_positions {
                return Err(self.too_many());
            }
            layers.push(next);
        }
    }

    /// The jumps of `positions`, piece by piece (see [`Piece`]), and the number of classes
    /// they lead to, each in `met`: the jump's index, the element taking the position it leads
    /// to onto its class, and the class's slot. `met` is made for the classes `expected`
    /// says; one that fills up past three quarters is made four times as large and the layer
    /// searched again. More than `most` jumps in all are refused as a future too large, as
    /// soon as the pieces found so far hold them.
    fn jumps_of(
        &self,
        positions: &[Pegs],
        most: usize,
        expected: Room,
        met: &mut SharedSlots,
    ) -> Result<(Vec<Piece>, usize), Error> {
        let mut room = expected.classes(positions.len()).max(64);
        loop {
            // A jump names its class's slot in the bits its edge leaves (see [`EdgeCode`]):
            // only a board of many symmetries with a layer of millions of classes runs out.
            if SharedSlots::size_for(room) > self.code.most_children() {
                return Err(Error::Invalid(format!(
                    "a layer of this position's future holds more classes than the coach can number on a board of {} symmetries",
                    self.group.order()
                )));
            }
            met.reset(room);
            let met = &*met;
            let (found, added) = (AtomicUsize::new(0), AtomicUsize::new(0));
            let full = AtomicBool::new(false);
            let too_many = || found.load(Ordering::Relaxed) > most;
            let pieces: Option<Vec<Piece>> = positions
                .par_chunks(SEARCH_CHUNK)
                .map_init(
                    || std::array::from_fn(|_| Vec::new()),
                    |ahead, chunk| {
                        if self.cancel.is_cancelled() || too_many() || full.load(Ordering::Relaxed) {
                            return None;
                        }
                        let piece = self.piece_of(chunk, expected, met, ahead);
                        match piece {
                            Ok((piece, new)) if met.holds(added.fetch_add(new, Ordering::Relaxed) + new) => {
                                found.fetch_add(piece.edges.len(), Ordering::Relaxed);
                                Some(piece)
                            }
                            // A table too full stops every piece.
                            _ => {
                                full.store(true, Ordering::Relaxed);
                                None
                            }
                        }
                    },
                )
                .collect();
            if too_many() {
                return Err(self.too_many());
            }
            if full.load(Ordering::Relaxed) {
                room = 4 * room.max(added.load(Ordering::Relaxed));
                continue;
            }
            let pieces = pieces.ok_or_else(|| self.stopped())?;
            return Ok((pieces, added.into_inner()));
        }
    }

    /// The jumps of a chunk of positions and the number of classes they added to `met`
    /// (`ahead` holds the jumps of the positions ahead, in turn).
    fn piece_of(
        &self,
        chunk: &[Pegs],
        expected: Room,
        met: &SharedSlots,
        ahead: &mut [Vec<(Pegs, u16, u16)>; RING],
    ) -> Result<(Piece, usize), Full> {
        let weighted = self.weighs_jumps();
        let mut piece = Piece::new(chunk.len(), expected.edges(chunk.len()), weighted);
        // A position's children are found, and their slots asked for, two positions before
        // they are looked up: the look-ups miss the cache (the table outgrows it), and misses
        // asked for together overlap.
        let mut new = 0;
        for (k, &p) in chunk.iter().enumerate() {
            let found = &mut ahead[k % RING];
            found.clear();
            self.children.each(&self.moves, &self.group, p, |j, class, element| {
                met.prefetch(class);
                found.push((class, j as u16, element as u16));
            });
            if k >= LOOKUP_AHEAD {
                new += piece.add(met, self.code, &ahead[(k - LOOKUP_AHEAD) % RING])?;
            }
        }
        for k in chunk.len().saturating_sub(LOOKUP_AHEAD)..chunk.len() {
            new += piece.add(met, self.code, &ahead[k % RING])?;
        }
        Ok((piece, new))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::policy::Policy;
    use std::collections::BTreeSet;

    /// A layer's jumps lead to its classes, each class met once in its table, after the
    /// table filled up (made for 64 classes, the least it takes) and the layer was searched
    /// again: English positions with many jumps, in three pieces, then some of them again.
    #[test]
    fn a_layers_jumps_lead_to_its_classes_each_met_once() {
        let board = crate::solitaire::board::builtin("english").unwrap();
        // A policy that weighs jumps: the pieces keep which jump each is.
        let coach = Coach::new(&board, Policy::PegFirst);
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut positions: Vec<Pegs> = (0..3 * SEARCH_CHUNK)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                Pegs(board.full().0 & state)
            })
            .collect();
        positions.sort_by_key(|&p| std::cmp::Reverse(coach.moves.legal(p).count()));
        let layer: Vec<Pegs> = positions[..2 * SEARCH_CHUNK].iter().chain(&positions[..5]).copied().collect();
        let mut met = SharedSlots::default();
        let (pieces, classes) =
            coach.jumps_of(&layer, usize::MAX, Room { edges: 16, classes: 0 }, &mut met).unwrap();
        assert_eq!(pieces.len(), 3);
        assert!(met.size() >= 4 * 64, "the table was never made again: {} slots", met.size());
        let lengths: Vec<u32> =
            pieces.iter().flat_map(|p| p.starts.windows(2).map(|w| w[1] - w[0])).collect();
        let legal: Vec<u32> = layer.iter().map(|&p| coach.moves.legal(p).count() as u32).collect();
        assert_eq!(lengths, legal);
        let next = met.rank(classes, 33);
        // Each position's jumps (in no particular order): its class, jump and element.
        let mut rows =
            pieces.iter().flat_map(|p| p.starts.windows(2).map(move |w| (p, w[0] as usize..w[1] as usize)));
        let mut distinct = BTreeSet::new();
        for &p in &layer {
            let (piece, row) = rows.next().unwrap();
            let jumps = piece.jumps.as_ref().expect("kept under a weighted policy");
            let mut found: Vec<(Pegs, usize, usize)> = row
                .map(|k| {
                    let e = piece.edges[k];
                    (
                        next[met.rank_at(coach.code.child(e)) as usize],
                        jumps[k] as usize,
                        coach.code.element(e),
                    )
                })
                .collect();
            let mut expected: Vec<(Pegs, usize, usize)> = coach
                .moves
                .legal(p)
                .map(|j| {
                    let (class, element) = coach.group.canonical_with_element(coach.moves.apply(p, j));
                    (class, j, element)
                })
                .collect();
            found.sort_unstable();
            expected.sort_unstable();
            assert_eq!(found, expected);
            distinct.extend(found.iter().map(|f| f.0));
        }
        assert_eq!(next, distinct.into_iter().collect::<Vec<_>>(), "each class once, in order");
    }
}
