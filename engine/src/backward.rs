//! Exact backward evaluation: the value of a state is the weighted average of its
//! children's values, memoized over raw states. It shares nothing with the forward engine
//! but the `Ranked` chain trait, so the two check each other.

use crate::Ranked;
use hashbrown::HashMap;
use rug::Rational;
use std::collections::BTreeMap;
use std::rc::Rc;

type Dist<K> = Rc<BTreeMap<K, Rational>>;

/// The probability of ending in each class of absorbing state, starting from `start`.
/// Meant for small chains: every reachable state is kept with its whole distribution.
pub fn absorption<C, K, F>(chain: &C, start: C::State, classify: F) -> BTreeMap<K, Rational>
where
    C: Ranked,
    K: Ord + Clone,
    F: Fn(C::State) -> K,
{
    let mut memo: HashMap<C::State, Dist<K>> = HashMap::new();
    value(chain, start, &classify, &mut memo).as_ref().clone()
}

/// `absorption` from each of several starts, sharing one memo: a table over many starts of
/// one chain costs little more than its largest entry.
pub fn absorption_each<C, K, F>(chain: &C, starts: &[C::State], classify: F) -> Vec<BTreeMap<K, Rational>>
where
    C: Ranked,
    K: Ord + Clone,
    F: Fn(C::State) -> K,
{
    let mut memo: HashMap<C::State, Dist<K>> = HashMap::new();
    starts.iter().map(|&s| value(chain, s, &classify, &mut memo).as_ref().clone()).collect()
}

fn value<C, K, F>(chain: &C, state: C::State, classify: &F, memo: &mut HashMap<C::State, Dist<K>>) -> Dist<K>
where
    C: Ranked,
    K: Ord + Clone,
    F: Fn(C::State) -> K,
{
    if let Some(d) = memo.get(&state) {
        return d.clone();
    }
    let mut moves = Vec::new();
    let total = chain.transitions(state, &mut moves);
    let mut dist = BTreeMap::new();
    if moves.is_empty() {
        dist.insert(classify(state), Rational::from(1));
    } else {
        for (child, weight) in moves {
            let p = Rational::from((weight, total));
            for (k, v) in value(chain, child, classify, memo).iter() {
                *dist.entry(k.clone()).or_insert_with(Rational::new) += Rational::from(&p * v);
            }
        }
    }
    let dist = Rc::new(dist);
    memo.insert(state, dist.clone());
    dist
}
