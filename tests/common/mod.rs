//! An independent model of the 15-hole board for cross-checks: moves built from row/column
//! coordinates as seed 003 lists them, exhaustive enumeration as seed 000 does it, and an
//! exact memoized recursion as seed 001 does it. It shares no code with the library.
#![allow(dead_code)]

use rug::Rational;
use std::collections::HashMap;

/// Hole index of (row, column) on a triangle, A = (0, 0), row by row.
fn index(row: i32, col: i32) -> usize {
    (row * (row + 1) / 2 + col) as usize
}

/// Every (from, over, to) on a triangle of `rows` rows, both directions.
pub fn triangle_moves(rows: i32) -> Vec<[usize; 3]> {
    let inside = |r: i32, c: i32| r >= 0 && r < rows && c >= 0 && c <= r;
    let mut moves = Vec::new();
    for r in 0..rows {
        for c in 0..=r {
            // Half the moves, "left to right or top to bottom" as seed 003 lists them.
            for (dr, dc) in [(0, 1), (1, 0), (1, 1)] {
                if inside(r + 2 * dr, c + 2 * dc) {
                    let (a, b, z) = (index(r, c), index(r + dr, c + dc), index(r + 2 * dr, c + 2 * dc));
                    moves.push([a, b, z]);
                    moves.push([z, b, a]);
                }
            }
        }
    }
    moves
}

fn legal(pos: u32, moves: &[[usize; 3]]) -> Vec<u32> {
    moves
        .iter()
        .filter(|m| pos >> m[0] & 1 == 1 && pos >> m[1] & 1 == 1 && pos >> m[2] & 1 == 0)
        .map(|m| pos ^ (1 << m[0] | 1 << m[1] | 1 << m[2]))
        .collect()
}

/// Plays every game from `pos` (depth-first, no memo) and tallies end positions.
pub fn enumerate_games(pos: u32, moves: &[[usize; 3]], ends: &mut HashMap<u32, u64>) {
    let next = legal(pos, moves);
    if next.is_empty() {
        *ends.entry(pos).or_default() += 1;
    }
    for p in next {
        enumerate_games(p, moves, ends);
    }
}

/// P(one peg left) from `pos` under uniform random jumps, exactly.
pub fn win_probability(pos: u32, moves: &[[usize; 3]], memo: &mut HashMap<u32, Rational>) -> Rational {
    if let Some(v) = memo.get(&pos) {
        return v.clone();
    }
    let next = legal(pos, moves);
    let v = if next.is_empty() {
        Rational::from(u32::from(pos.count_ones() == 1))
    } else {
        let n = next.len() as u32;
        next.into_iter().map(|p| win_probability(p, moves, memo)).sum::<Rational>() / n
    };
    memo.insert(pos, v.clone());
    v
}

pub fn start(holes: usize, empty: usize) -> u32 {
    ((1u32 << holes) - 1) & !(1 << empty)
}
