//! How a random player picks a jump among the legal ones.

use crate::solitaire::board::Jump;
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Policy {
    /// Every legal jump equally likely (the textbook's random player, and the default).
    #[default]
    Uniform,
    /// A uniformly random movable peg, then a uniformly random jump of that peg.
    PegFirst,
    /// A uniformly random hole that can be filled, then a uniformly random jump into it.
    HoleFirst,
}

pub const POLICIES: [Policy; 3] = [Policy::Uniform, Policy::PegFirst, Policy::HoleFirst];

impl Policy {
    /// Integer weights for the `legal` jumps (indices into `jumps`) and their total: jump i
    /// is taken with probability `out[i] / total`. Integer weights keep the engine exact.
    pub fn weights(self, jumps: &[Jump], legal: &[usize], out: &mut Vec<u64>) -> u64 {
        out.clear();
        let group_of = |j: &Jump| match self {
            Policy::Uniform => 0,
            Policy::PegFirst => j.from,
            Policy::HoleFirst => j.to,
        };
        if self == Policy::Uniform {
            out.extend(legal.iter().map(|_| 1));
            return legal.len() as u64;
        }
        // Two-stage choice: a group (peg or hole) uniformly, then a jump within it.
        // P(jump) = 1/groups * 1/size = (lcm/size) / (groups * lcm).
        let mut sizes = [0u64; 64];
        for &j in legal {
            sizes[group_of(&jumps[j]) as usize] += 1;
        }
        let groups = sizes.iter().filter(|&&s| s > 0).count() as u64;
        let lcm = sizes.iter().filter(|&&s| s > 0).fold(1, |a, &s| a / gcd(a, s) * s);
        out.extend(legal.iter().map(|&j| lcm / sizes[group_of(&jumps[j]) as usize]));
        groups * lcm
    }

    pub fn name(self) -> &'static str {
        match self {
            Policy::Uniform => "uniform",
            Policy::PegFirst => "peg-first",
            Policy::HoleFirst => "hole-first",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Policy::Uniform => "each legal jump equally likely",
            Policy::PegFirst => "a random movable peg, then a random jump of it",
            Policy::HoleFirst => "a random hole that can be filled, then a random jump into it",
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Policy, String> {
        POLICIES.into_iter().find(|p| p.name() == s.to_ascii_lowercase()).ok_or_else(|| {
            // Quoted in short: an error is one short line whatever it quotes.
            format!(
                "unknown policy {}; known: uniform, peg-first, hole-first",
                crate::render::number::quoted(s)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peg_first_weights_split_evenly_between_pegs() {
        // Peg 0 has two jumps, peg 1 has one: probabilities 1/4, 1/4, 1/2.
        let jumps = [
            Jump { from: 0, over: 2, to: 3 },
            Jump { from: 0, over: 4, to: 5 },
            Jump { from: 1, over: 6, to: 7 },
        ];
        let mut w = Vec::new();
        let total = Policy::PegFirst.weights(&jumps, &[0, 1, 2], &mut w);
        assert_eq!((w.clone(), total), (vec![1, 1, 2], 4));
        let total = Policy::HoleFirst.weights(&jumps, &[0, 1, 2], &mut w);
        assert_eq!((w, total), (vec![1, 1, 1], 3));
    }
}
