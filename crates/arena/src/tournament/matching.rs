//! Maximum matching in a general graph (Edmonds' blossom algorithm), used by the
//! Swiss pairing as its oracle: "can everyone still left be paired with someone
//! they have not met?"
//!
//! The pairing procedure of 附錄二 is greedy with a pair-breaking rule (拆對) for
//! dead ends. Asking this oracle before each tentative pair lets the procedure keep
//! its order of preference while never walking into a dead end it would have to
//! back out of, so the whole field is always paired when it can be.

/// A matching over vertices `0..n` of a graph given by adjacency lists, with a
/// mask of vertices still in play. Keeps a maximum matching of the live vertices.
#[derive(Clone, Debug)]
pub struct Matcher<'g> {
    adj: &'g [Vec<usize>],
    alive: Vec<bool>,
    mate: Vec<Option<usize>>,
}

const NONE: usize = usize::MAX;

struct Search<'a> {
    adj: &'a [Vec<usize>],
    alive: &'a [bool],
    mate: &'a [Option<usize>],
    base: Vec<usize>,
    parent: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    queue: Vec<usize>,
}

impl Search<'_> {
    fn mate(&self, v: usize) -> usize {
        self.mate[v].unwrap_or(NONE)
    }

    /// The lowest common ancestor of `a` and `b` in the alternating forest.
    fn lca(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.adj.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            let m = self.mate(a);
            if m == NONE {
                break;
            }
            a = self.parent[m];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate(b)];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            let m = self.mate(v);
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[m]] = true;
            self.parent[v] = child;
            child = m;
            v = self.parent[m];
        }
    }

    /// Looks for an augmenting path from the free vertex `root`; returns its other
    /// end (with `parent` links describing the path) or `None`.
    fn find_path(&mut self, root: usize) -> Option<usize> {
        let n = self.adj.len();
        self.used.iter_mut().for_each(|u| *u = false);
        self.parent.iter_mut().for_each(|p| *p = NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push(root);
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for k in 0..self.adj[v].len() {
                let to = self.adj[v][k];
                if !self.alive[to] || self.base[v] == self.base[to] || self.mate(v) == to {
                    continue;
                }
                let to_mate = self.mate(to);
                if to == root || (to_mate != NONE && self.parent[to_mate] != NONE) {
                    let cur = self.lca(v, to);
                    self.blossom.iter_mut().for_each(|b| *b = false);
                    self.mark_path(v, cur, to);
                    self.mark_path(to, cur, v);
                    for i in 0..n {
                        if self.alive[i] && self.blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if to_mate == NONE {
                        return Some(to);
                    }
                    self.used[to_mate] = true;
                    self.queue.push(to_mate);
                }
            }
        }
        None
    }
}

impl<'g> Matcher<'g> {
    /// A maximum matching of the graph with adjacency lists `adj` (symmetric, no
    /// self-loops), all vertices live.
    pub fn new(adj: &'g [Vec<usize>]) -> Matcher<'g> {
        let n = adj.len();
        let mut m = Matcher {
            adj,
            alive: vec![true; n],
            mate: vec![None; n],
        };
        for v in 0..n {
            if m.mate[v].is_none() {
                m.augment(v);
            }
        }
        m
    }

    /// Tries to grow the matching by an augmenting path from the free vertex `root`.
    fn augment(&mut self, root: usize) -> bool {
        let n = self.adj.len();
        let mut s = Search {
            adj: self.adj,
            alive: &self.alive,
            mate: &self.mate,
            base: (0..n).collect(),
            parent: vec![NONE; n],
            used: vec![false; n],
            blossom: vec![false; n],
            queue: Vec::with_capacity(n),
        };
        let Some(mut v) = s.find_path(root) else {
            return false;
        };
        let parent = s.parent;
        while v != NONE {
            let pv = parent[v];
            let next = self.mate[pv].unwrap_or(NONE);
            self.mate[v] = Some(pv);
            self.mate[pv] = Some(v);
            v = next;
        }
        true
    }

    /// The number of live vertices.
    pub fn live(&self) -> usize {
        self.alive.iter().filter(|&&a| a).count()
    }

    /// The size of the current (maximum) matching of the live vertices.
    pub fn size(&self) -> usize {
        (0..self.adj.len())
            .filter(|&v| self.alive[v] && self.mate[v].is_some_and(|m| m > v))
            .count()
    }

    /// Whether every live vertex is matched.
    pub fn is_perfect(&self) -> bool {
        2 * self.size() == self.live()
    }

    /// The partner of `v` in the current matching.
    pub fn mate(&self, v: usize) -> Option<usize> {
        self.mate[v]
    }

    /// Takes `v` out of the graph and restores a maximum matching of the rest.
    pub fn remove(&mut self, v: usize) {
        if !self.alive[v] {
            return;
        }
        self.alive[v] = false;
        if let Some(m) = self.mate[v].take() {
            self.mate[m] = None;
            self.augment(m);
        }
    }

    /// Takes the pair `a`, `b` out of the graph (they are paired with each other
    /// outside it) and restores a maximum matching of the rest.
    pub fn remove_pair(&mut self, a: usize, b: usize) {
        if self.mate[a] == Some(b) {
            self.alive[a] = false;
            self.alive[b] = false;
            self.mate[a] = None;
            self.mate[b] = None;
            return;
        }
        self.remove(a);
        self.remove(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_force(n: usize, edges: &[(usize, usize)], alive: &[bool]) -> usize {
        fn go(v: usize, n: usize, adj: &[Vec<bool>], used: &mut [bool]) -> usize {
            if v == n {
                return 0;
            }
            if used[v] {
                return go(v + 1, n, adj, used);
            }
            used[v] = true;
            let mut best = go(v + 1, n, adj, used);
            for w in v + 1..n {
                if !used[w] && adj[v][w] {
                    used[w] = true;
                    best = best.max(1 + go(v + 1, n, adj, used));
                    used[w] = false;
                }
            }
            used[v] = false;
            best
        }
        let mut adj = vec![vec![false; n]; n];
        for &(a, b) in edges {
            adj[a][b] = true;
            adj[b][a] = true;
        }
        let mut used: Vec<bool> = alive.iter().map(|a| !a).collect();
        go(0, n, &adj, &mut used)
    }

    fn graph(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in edges {
            if a != b && !adj[a].contains(&b) {
                adj[a].push(b);
                adj[b].push(a);
            }
        }
        adj
    }

    #[test]
    fn odd_cycles_need_blossoms() {
        // Two triangles joined by an edge: perfect matching exists only through the
        // bridge, which a naive augmenting search misses.
        let edges = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3)];
        let adj = graph(6, &edges);
        let m = Matcher::new(&adj);
        assert!(m.is_perfect());
        assert_eq!(m.mate(2), Some(3));
    }

    proptest! {
        #[test]
        fn agrees_with_brute_force(
            n in 1usize..11,
            raw in proptest::collection::vec((0usize..11, 0usize..11), 0..30),
            removals in proptest::collection::vec(0usize..11, 0..4),
        ) {
            let edges: Vec<(usize, usize)> = raw
                .into_iter()
                .filter(|&(a, b)| a < n && b < n && a != b)
                .collect();
            let adj = graph(n, &edges);
            let mut m = Matcher::new(&adj);
            let mut alive = vec![true; n];
            prop_assert_eq!(m.size(), brute_force(n, &edges, &alive));
            for r in removals.into_iter().filter(|&r| r < n) {
                m.remove(r);
                alive[r] = false;
                prop_assert_eq!(m.size(), brute_force(n, &edges, &alive));
            }
            // Every matched pair is an edge between live vertices.
            for v in 0..n {
                if let Some(w) = m.mate(v) {
                    prop_assert!(alive[v] && alive[w]);
                    prop_assert_eq!(m.mate(w), Some(v));
                    prop_assert!(edges.contains(&(v, w)) || edges.contains(&(w, v)));
                }
            }
        }
    }
}
