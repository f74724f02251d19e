//! Graph analysis before any arithmetic: strongly connected components in topological order
//! and which states can reach a set at all. Iterative throughout: a chain of a million states
//! in a line must not overflow the stack.

/// The strongly connected components of the graph on `0..n` whose edges out of `v` are
/// `successors(v)` (restricted to states where `inside` holds: edges to other states are
/// ignored, and only states inside are put in components), sinks first: every edge leaves a
/// component for one listed before it. Tarjan's algorithm with an explicit stack.
pub fn components<I>(n: usize, inside: &[bool], successors: impl Fn(u32) -> I) -> Vec<Vec<u32>>
where
    I: Iterator<Item = u32>,
{
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    let mut next_index = 0u32;
    // (state, its successors not yet looked at)
    let mut frames: Vec<(u32, I)> = Vec::new();
    for root in 0..n as u32 {
        if !inside[root as usize] || index[root as usize] != NONE {
            continue;
        }
        index[root as usize] = next_index;
        low[root as usize] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        frames.push((root, successors(root)));
        while let Some((v, iter)) = frames.last_mut() {
            let v = *v;
            match iter.next() {
                Some(w) if !inside[w as usize] => {}
                Some(w) if index[w as usize] == NONE => {
                    index[w as usize] = next_index;
                    low[w as usize] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    frames.push((w, successors(w)));
                }
                Some(w) => {
                    if on_stack[w as usize] {
                        low[v as usize] = low[v as usize].min(index[w as usize]);
                    }
                }
                None => {
                    frames.pop();
                    if let Some((parent, _)) = frames.last() {
                        low[*parent as usize] = low[*parent as usize].min(low[v as usize]);
                    }
                    if low[v as usize] == index[v as usize] {
                        let mut component = Vec::new();
                        loop {
                            let w = stack.pop().expect("v is on the stack");
                            on_stack[w as usize] = false;
                            component.push(w);
                            if w == v {
                                break;
                            }
                        }
                        component.sort_unstable();
                        out.push(component);
                    }
                }
            }
        }
    }
    out
}

/// The reverse graph of `n` states in compressed rows: `predecessors(v)` lists every `u` with
/// an edge `u -> v`.
pub struct Reverse {
    offsets: Vec<usize>,
    from: Vec<u32>,
}

impl Reverse {
    pub fn new<I>(n: usize, successors: impl Fn(u32) -> I) -> Reverse
    where
        I: Iterator<Item = u32>,
    {
        let mut offsets = vec![0usize; n + 1];
        for u in 0..n as u32 {
            for v in successors(u) {
                offsets[v as usize + 1] += 1;
            }
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut from = vec![0u32; offsets[n]];
        for u in 0..n as u32 {
            for v in successors(u) {
                from[fill[v as usize]] = u;
                fill[v as usize] += 1;
            }
        }
        Reverse { offsets, from }
    }

    pub fn predecessors(&self, v: u32) -> &[u32] {
        &self.from[self.offsets[v as usize]..self.offsets[v as usize + 1]]
    }

    /// Every state that can reach a state in `goal` by a path whose other states all hold
    /// `through` (goal states themselves included, whatever `through` says of them).
    pub fn reaching(&self, goal: &[bool], through: &[bool]) -> Vec<bool> {
        let mut seen = goal.to_vec();
        let mut queue: Vec<u32> = (0..goal.len() as u32).filter(|&v| goal[v as usize]).collect();
        while let Some(v) = queue.pop() {
            for &u in self.predecessors(v) {
                if !seen[u as usize] && through[u as usize] {
                    seen[u as usize] = true;
                    queue.push(u);
                }
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(u32, u32)], n: usize) -> Vec<Vec<u32>> {
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in edges {
            adj[a as usize].push(b);
        }
        adj
    }

    #[test]
    fn components_come_sinks_first() {
        // 0 -> 1 <-> 2 -> 3, 3 -> 3, 4 alone
        let adj = graph(&[(0, 1), (1, 2), (2, 1), (2, 3), (3, 3)], 5);
        let all = vec![true; 5];
        let c = components(5, &all, |v| adj[v as usize].iter().copied());
        assert_eq!(c, vec![vec![3], vec![1, 2], vec![0], vec![4]]);
    }

    #[test]
    fn a_long_line_does_not_overflow_the_stack() {
        let n = 1_000_000;
        let all = vec![true; n];
        let c = components(n, &all, |v| (v + 1 < n as u32).then_some(v + 1).into_iter());
        assert_eq!(c.len(), n);
        assert_eq!(c[0], vec![n as u32 - 1]);
        let ring = components(n, &all, |v| std::iter::once((v + 1) % n as u32));
        assert_eq!(ring.len(), 1);
    }

    #[test]
    fn reaching_stops_where_through_is_false() {
        let adj = graph(&[(0, 1), (1, 2), (3, 2)], 4);
        let rev = Reverse::new(4, |v| adj[v as usize].iter().copied());
        let goal = [false, false, true, false];
        assert_eq!(rev.reaching(&goal, &[true; 4]), vec![true, true, true, true]);
        assert_eq!(rev.reaching(&goal, &[true, false, true, true]), vec![false, false, true, true]);
    }
}
