//! The whole-group method's third pass: every start's pegs-left distribution at once, in one
//! forward pass over the classes the starts reach, where the forward engine would follow
//! each start's classes alone.
//!
//! Random play commutes with every symmetry, so the whole group's classes form a Markov chain
//! of their own: a class's jumps (those of the position that stands for it) lead to the
//! classes of the positions they make, with their weights. The mass a start puts on a class
//! is carried along that chain exactly, and where a class has no jump its mass ends there,
//! with as many pegs as it has. A class reached by several starts carries a mass for each:
//! its jumps are found once and serve them all (on the 28-hole triangle the non-centre
//! starts share their classes 2.7 times over; where they share fewer, the pass declines).
//!
//! Within a layer every start's masses are integers over one common denominator (the one
//! above times the lcm of the layer's move totals), in flat limbs, a row per class the start
//! reaches. No mass passes one, so a numerator never passes the denominator and the width of
//! a layer is known before it is summed.

use crate::engine::layered::Distinct;
use crate::engine::layered::limbs::{limbs_for, to_integer};
use crate::engine::{Cancel, Mode};
use crate::error::Error;
use crate::solitaire::exact::Stage;
use crate::solitaire::gather::{GATHERED, Gathered};
use crate::solitaire::moves::Children;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::scale::{Factor, factors};
use crate::solitaire::slots::Slots;
use crate::solitaire::whole_group::{AHEAD, CHUNK, Game, LayerDone, Members, Reached, interrupted, weighed};
use rayon::prelude::*;
use rug::{Integer, Rational};
use std::collections::BTreeMap;

/// Classes whose jumps are found and spread at a time: their jumps (about 12 bytes each) are
/// held until every start has taken its share.
const ROUND: usize = 1 << 16;

/// For each start of `reached`, the value (probability, or number of games) of ending with
/// each number of pegs, where it is not zero. `None` where the starts share too few classes
/// for the pass to pay (fewer than 2.5 starts a class on average: a start alone has one), and
/// as soon as a step is projected to need more than `budget` bytes (the layers of classes
/// held, both layers of masses, the next layer's table of classes and a round's jumps),
/// before that step is taken.
pub fn pegs_left(
    game: &Game<'_>,
    reached: &Reached,
    mode: Mode,
    budget: Option<u64>,
    cancel: &Cancel,
    progress: &mut LayerDone<'_>,
) -> Result<Option<Vec<BTreeMap<u32, Rational>>>, Error> {
    let starts = reached.positions.len();
    let layers = &reached.layers;
    if layers.is_empty() {
        return Ok(Some(vec![BTreeMap::new(); starts]));
    }
    // The classes of every layer and which of them each start reaches, held throughout.
    let held: u64 =
        layers.iter().map(|l| l.len() as u64 * 8 + starts as u64 * Members::bytes(l.len() as u64)).sum();
    let rows: u64 = reached.members.iter().flatten().map(|m| m.count() as u64).sum();
    let classes: u64 = layers.iter().map(|l| l.len() as u64).sum();
    // Finding a class's jumps once pays where the starts share their classes: on triangle7
    // (2.7 starts a class on average) the pass took about 40 s where the forward engine,
    // once per start, took 47; on the English board (2.0) about as long as the engine takes,
    // and the run peaked at 16.4 GB where the engine's peaks at 9.7.
    if 2 * rows < 5 * classes {
        return Ok(None);
    }
    let children_of = Children::new(game.moves, game.group);
    let mut ends: Vec<BTreeMap<u32, Rational>> = vec![BTreeMap::new(); starts];
    // The first layer: each start's class, with mass 1.
    let mut layer = Masses {
        rows: (0..starts).map(|s| vec![1; reached.members[0][s].count()]).collect(),
        width: 1,
        denominator: Integer::from(1),
    };
    for (k, classes) in layers.iter().enumerate() {
        let pegs = classes.first().map_or(0, |c| c.count());
        let stopped = || interrupted("forward pass of every start's pegs left", k, pegs);
        if cancel.is_cancelled() {
            return Err(stopped());
        }
        let step = Step::of(game, mode, classes, layers.get(k + 1), &layer);
        if budget.is_some_and(|budget| held + step.bytes(&layer, reached, k + 1) > budget) {
            return Ok(None);
        }
        let mut next = step.empty_next(reached, k + 1);
        let mut absorbed = vec![Integer::new(); starts];
        for (r, round) in classes.chunks(ROUND).enumerate() {
            if cancel.is_cancelled() {
                return Err(stopped());
            }
            let jumps: Vec<Jumps> = round
                .par_chunks(CHUNK)
                .enumerate()
                .map(|(c, chunk)| Jumps::of(game, mode, &children_of, &step, chunk, r * ROUND + c * CHUNK))
                .collect();
            for (s, ended) in step.spread(&jumps, &layer, &mut next, reached, k).into_iter().enumerate() {
                absorbed[s] += ended;
            }
        }
        for (s, ended) in absorbed.into_iter().enumerate() {
            if ended != 0 {
                ends[s].insert(pegs, Rational::from((ended, layer.denominator.clone())));
            }
        }
        layer = next;
        let rows = layer.rows.iter().map(|r| (r.len() / layer.width) as u64).sum();
        if layers.get(k + 1).is_some() {
            progress(Stage::PegsLeft, pegs.saturating_sub(1), rows);
        }
    }
    Ok(Some(ends))
}

/// The masses of one layer: for each start, a row of `width` limbs for each class it reaches
/// (in the order of the layer's classes), over `denominator`.
struct Masses {
    rows: Vec<Vec<u64>>,
    width: usize,
    denominator: Integer,
}

impl Masses {
    fn row(&self, s: usize, r: usize) -> &[u64] {
        &self.rows[s][r * self.width..(r + 1) * self.width]
    }
}

/// What a step from one layer to the next needs of it: where the next layer's classes are,
/// the factor of each move total, and the next layer's denominator and width.
struct Step {
    slots: Slots,
    /// The distinct move totals, ascending, and the factor of each.
    totals: Vec<u64>,
    factors: Vec<Factor>,
    denominator: Integer,
    width: usize,
}

impl Step {
    fn of(game: &Game<'_>, mode: Mode, classes: &[Pegs], next: Option<&Vec<Pegs>>, layer: &Masses) -> Step {
        let distinct = totals(game, mode, classes);
        let (lcm, mut factor_of) = factors(distinct.iter());
        // Ascending, as `Distinct` lists them.
        let totals: Vec<u64> = distinct.iter().collect();
        let factors = totals.iter().map(|t| factor_of.remove(t).expect("a factor for each total")).collect();
        let denominator = Integer::from(&layer.denominator * &lcm);
        let width = next_width(mode, &denominator, layer);
        let slots = next.map_or_else(Slots::default, |next| {
            Slots::of(next.len(), next.iter().enumerate().map(|(i, &class)| (class, 0, i as u32)))
        });
        Step { slots, totals, factors, denominator, width }
    }

    /// The bytes the step from `layer` to layer `next` holds: both layers' masses, the next
    /// layer's table of classes and a round's jumps (counted as 16 a class, 12 bytes each;
    /// the English board's classes have about 9).
    fn bytes(&self, layer: &Masses, reached: &Reached, next: usize) -> u64 {
        let here: u64 = layer.rows.iter().map(|r| r.len() as u64 * 8).sum();
        let rows: u64 = reached.members.get(next).map_or(0, |m| m.iter().map(|m| m.count() as u64).sum());
        here + rows * self.width as u64 * 8 + self.slots.bytes() + ROUND as u64 * 16 * 12
    }

    /// The next layer's masses, all zero.
    fn empty_next(&self, reached: &Reached, next: usize) -> Masses {
        let rows = match reached.members.get(next) {
            Some(members) => members.iter().map(|m| vec![0; m.count() * self.width]).collect(),
            None => vec![Vec::new(); reached.positions.len()],
        };
        Masses { rows, width: self.width, denominator: self.denominator.clone() }
    }

    /// Spreads the masses of the classes `jumps` hold onto `next`, and returns for each start
    /// the numerators of the mass that ends in them (over the layer's denominator). A task a
    /// start's slice of rows, side by side, each reading the round's jumps of its start and
    /// adding those that lead into its slice (see [`Gathered`]). Each slice of a start looks up
    /// and scales that start's jumps again, so a start is cut into slices only where there are
    /// fewer starts than cores.
    fn spread(
        &self,
        jumps: &[Jumps],
        layer: &Masses,
        next: &mut Masses,
        reached: &Reached,
        k: usize,
    ) -> Vec<Integer> {
        let starts = layer.rows.len();
        let threads = rayon::current_num_threads();
        let slices = threads.div_ceil(starts.max(1));
        let width = next.width;
        let per_slice: Vec<usize> =
            next.rows.iter().map(|r| (r.len() / width).div_ceil(slices).max(1)).collect();
        // Every start has a task, one that adds nothing where the start reaches no class
        // below (its mass all ends here), to count the mass that ends.
        let mut tasks = Vec::new();
        for (s, rows) in next.rows.iter_mut().enumerate() {
            match rows.is_empty() {
                true => tasks.push((s, 0, &mut rows[..])),
                false => tasks.extend(
                    rows.chunks_mut(per_slice[s] * width).enumerate().map(|(slice, rows)| (s, slice, rows)),
                ),
            }
        }
        // A task a job: the shares differ in size, and an idle core takes the next.
        let ended: Vec<(usize, Integer)> = tasks
            .into_par_iter()
            .with_max_len(1)
            .map(|(s, slice, rows)| {
                let (here, below) = (&reached.members[k][s], reached.members.get(k + 1).map(|m| &m[s]));
                let (first, count) = ((slice * per_slice[s]) as u32, (rows.len() / width) as u32);
                let mut gathered = Gathered::new();
                // The masses of the classes gathered, each times its factor.
                let mut scaled: Vec<u64> = Vec::with_capacity(GATHERED * width);
                let mut ended = Integer::new();
                for part in jumps {
                    for (class, &factor) in part.factors.iter().enumerate() {
                        let Some(row) = here.row(part.first + class) else { continue };
                        if factor == STUCK {
                            // Counted once a start, by its first slice.
                            if slice == 0 {
                                ended += to_integer(layer.row(s, row));
                            }
                            continue;
                        }
                        let below = below.expect("a class with a jump has a layer below");
                        let mut from = None;
                        for e in part.ends[class] as usize..part.ends[class + 1] as usize {
                            if gathered.is_full() || scaled.len() == GATHERED * width {
                                gathered
                                    .add_into(rows, width, |from| &scaled[from as usize * width..][..width]);
                                scaled.clear();
                                from = None;
                            }
                            let from = *from.get_or_insert_with(|| {
                                scaled.resize(scaled.len() + width, 0);
                                let at = scaled.len() - width;
                                self.factors[factor as usize].scale(&mut scaled[at..], layer.row(s, row));
                                (at / width) as u32
                            });
                            if let Some(&ahead) = part.children.get(e + AHEAD) {
                                below.prefetch(ahead as usize);
                            }
                            let child = below
                                .row(part.children[e] as usize)
                                .expect("a start reaches its classes' children");
                            gathered.jump((child as u32).wrapping_sub(first), count, from, part.weights[e]);
                        }
                    }
                }
                gathered.add_into(rows, width, |from| &scaled[from as usize * width..][..width]);
                (s, ended)
            })
            .collect();
        let mut out = vec![Integer::new(); starts];
        for (s, value) in ended {
            out[s] += value;
        }
        out
    }
}

/// The factor index of a class with no jump, where mass ends.
const STUCK: u32 = u32::MAX;

/// The jumps of some consecutive classes of a layer (a part): for each class the index of its
/// move total's factor ([`STUCK`] where it has no jump) and, for each jump, the index of the
/// class it leads to in the next layer and its weight.
struct Jumps {
    /// The index of the first class in the layer.
    first: usize,
    factors: Vec<u32>,
    /// Class i's jumps: `ends[i]..ends[i + 1]`.
    ends: Vec<u32>,
    children: Vec<u32>,
    weights: Vec<u64>,
}

impl Jumps {
    fn of(
        game: &Game<'_>,
        mode: Mode,
        children_of: &Children,
        step: &Step,
        chunk: &[Pegs],
        first: usize,
    ) -> Jumps {
        let mut classes = Vec::new();
        let mut out = Jumps {
            first,
            factors: Vec::with_capacity(chunk.len()),
            ends: vec![0],
            children: Vec::new(),
            weights: Vec::new(),
        };
        let (mut legal, mut weights) = (Vec::new(), Vec::new());
        for &class in chunk {
            legal.clear();
            children_of.each(game.moves, game.group, class, |j, child, _| {
                legal.push(j);
                classes.push(child);
            });
            let total = weighed(game, mode, &legal, &mut weights);
            out.factors.push(match legal.is_empty() {
                true => STUCK,
                false => step.totals.binary_search(&total).expect("every total has its factor") as u32,
            });
            out.weights.extend_from_slice(&weights[..legal.len()]);
            out.ends.push(classes.len() as u32);
        }
        // Each child's index, its slot asked for ahead: the look-ups are scattered.
        out.children = (0..classes.len())
            .map(|e| {
                if let Some(&ahead) = classes.get(e + AHEAD) {
                    step.slots.prefetch(ahead);
                }
                step.slots.find(classes[e]).expect("every child of a reached class is reached").1
            })
            .collect();
        out
    }
}

/// The distinct move totals of the classes with a jump.
fn totals(game: &Game<'_>, mode: Mode, classes: &[Pegs]) -> Distinct {
    Distinct::of_parts(classes.par_chunks(CHUNK), |chunk, seen| {
        let (mut legal, mut weights) = (Vec::new(), Vec::new());
        for &class in chunk {
            legal.clear();
            legal.extend(game.moves.legal(class));
            if !legal.is_empty() {
                seen.insert(weighed(game, mode, &legal, &mut weights));
            }
        }
    })
}

/// Limbs wide enough for every numerator of the layer after `layer` (over `denominator`): a
/// probability never passes one, so its numerator never passes the denominator; a number of
/// games grows by less than 32 bits a layer (a class gathers the counts of at most the
/// group's order times the board's jumps parents, each jump counting once).
fn next_width(mode: Mode, denominator: &Integer, layer: &Masses) -> usize {
    match mode {
        Mode::Probability => limbs_for(denominator.significant_bits()),
        Mode::Paths => {
            let bits = layer
                .rows
                .par_iter()
                .flat_map_iter(|rows| rows.chunks(layer.width))
                .map(|row| {
                    row.iter()
                        .rposition(|&l| l != 0)
                        .map_or(0, |top| 64 * top as u32 + 64 - row[top].leading_zeros())
                })
                .max()
                .unwrap_or(0);
            limbs_for(bits + 32)
        }
    }
}
