//! The move tree of the binary record formats (XQF, CCBridge): records in
//! preorder, each with a "continuation follows" and an "alternative follows" flag,
//! turned into a [`Line`] with its variations, every move checked.
//!
//! Both formats store a record's continuation right after it, then its
//! alternatives: [`TreeBuilder`] links the records as they are read, and
//! [`TreeBuilder::line`] plays them from the start position. A move that cannot be
//! played ends its line: in [`Validation::Strict`] the whole record is refused, in
//! [`Validation::Lenient`] the line is kept up to the move before it with a
//! [`Warning`] naming the ply.

use super::game::{Line, Node};
use super::iccs;
use super::move_error::MoveError;
use super::warning::Warning;
use crate::core::{Move, Position, Square, Validation};

/// Deepest nesting of variations read.
pub const MAX_VARIATION_DEPTH: usize = 256;

/// One move record: its two points (or the raw value of a point off the board),
/// its comment and its continuation and alternatives.
#[derive(Clone, Debug)]
pub struct TreeNode {
    /// Where the piece starts (`Err`: the stored value, off the board).
    pub from: Result<Square, u8>,
    /// Where it goes.
    pub to: Result<Square, u8>,
    /// The comment after the move.
    pub comment: Option<String>,
    children: Vec<usize>,
}

impl TreeNode {
    /// A move record, not linked yet.
    pub fn new(
        from: Result<Square, u8>,
        to: Result<Square, u8>,
        comment: Option<String>,
    ) -> TreeNode {
        TreeNode {
            from,
            to,
            comment,
            children: Vec::new(),
        }
    }
}

/// Why a move tree cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeError {
    /// A record names a point off the board.
    BadSquare {
        /// Ply of the move (1 = first move of the game).
        ply: usize,
        /// The stored value.
        value: u8,
    },
    /// A recorded move is not legal.
    IllegalMove {
        /// Ply of the move.
        ply: usize,
        /// Why it cannot be played.
        error: MoveError,
    },
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
}

impl std::fmt::Display for TreeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TreeError::BadSquare { ply, value } => {
                write!(f, "move at ply {ply} names point {value}, off the board")
            }
            TreeError::IllegalMove { ply, error } => write!(f, "move at ply {ply}: {error}"),
            TreeError::TooDeep => {
                write!(f, "variations nested more than {MAX_VARIATION_DEPTH} deep")
            }
        }
    }
}

impl std::error::Error for TreeError {}

/// Links records read in preorder into a tree (node 0 is the root, the start
/// position, with the record's opening comment).
#[derive(Clone, Debug)]
pub struct TreeBuilder {
    nodes: Vec<TreeNode>,
    parent_of: Vec<usize>,
    pending: Vec<usize>,
    attach: Option<usize>,
}

impl TreeBuilder {
    /// A tree with only its root; `first_follows` says whether a move record comes
    /// next.
    pub fn new(root_comment: Option<String>, first_follows: bool) -> TreeBuilder {
        TreeBuilder {
            nodes: vec![TreeNode {
                from: Err(0),
                to: Err(0),
                comment: root_comment,
                children: Vec::new(),
            }],
            parent_of: vec![0],
            pending: Vec::new(),
            attach: first_follows.then_some(0),
        }
    }

    /// True while the flags read so far say that another record follows.
    pub fn wants_more(&self) -> bool {
        self.attach.is_some()
    }

    /// Adds the next record; `next` = its continuation follows, `alternative` = an
    /// alternative to it follows (after its continuation).
    pub fn push(&mut self, node: TreeNode, next: bool, alternative: bool) {
        let Some(parent) = self.attach else { return };
        let id = self.nodes.len();
        self.nodes.push(TreeNode {
            children: Vec::new(),
            ..node
        });
        self.parent_of.push(parent);
        self.nodes[parent].children.push(id);
        if alternative {
            self.pending.push(id);
        }
        self.attach = if next {
            Some(id)
        } else {
            self.pending.pop().map(|s| self.parent_of[s])
        };
    }

    /// The root's comment.
    pub fn root_comment(&self) -> Option<&String> {
        self.nodes[0].comment.as_ref()
    }

    /// The point the first move starts from, if there is one on the board.
    pub fn first_from(&self) -> Option<Square> {
        let &first = self.nodes[0].children.first()?;
        self.nodes[first].from.ok()
    }

    /// The main line with its variations, played from `start`.
    pub fn line(
        &self,
        start: &Position,
        validation: Validation,
        warnings: &mut Vec<Warning>,
    ) -> Result<Line, TreeError> {
        let mut pos = start.clone();
        let mut line = match self.nodes[0].children.split_first() {
            Some((&first, alts)) => {
                let mut b = Build {
                    nodes: &self.nodes,
                    validation,
                    warnings,
                };
                b.line(first, alts, &mut pos, 0)?
            }
            None => Line::default(),
        };
        line.comment = self.nodes[0].comment.clone();
        Ok(line)
    }
}

struct Build<'a> {
    nodes: &'a [TreeNode],
    validation: Validation,
    warnings: &'a mut Vec<Warning>,
}

impl Build<'_> {
    fn mv(&self, id: usize, pos: &Position) -> Result<Move, TreeError> {
        let ply = pos.game_ply() + 1;
        let n = &self.nodes[id];
        let from = n
            .from
            .map_err(|value| TreeError::BadSquare { ply, value })?;
        let to = n.to.map_err(|value| TreeError::BadSquare { ply, value })?;
        let mv = Move::new(from, to);
        iccs::check(pos, mv, &mv.to_string())
            .map_err(|error| TreeError::IllegalMove { ply, error })?;
        Ok(mv)
    }

    /// The line starting with node `first`, whose alternatives are `alts`.
    fn line(
        &mut self,
        first: usize,
        alts: &[usize],
        pos: &mut Position,
        depth: usize,
    ) -> Result<Line, TreeError> {
        if depth > MAX_VARIATION_DEPTH {
            return Err(TreeError::TooDeep);
        }
        let mut line = Line::default();
        let mut made = 0;
        let (mut cur, mut alts) = (first, alts);
        let result = loop {
            let mv = match self.mv(cur, pos) {
                Ok(mv) => mv,
                Err(e) => match (self.validation, e) {
                    (Validation::Lenient, TreeError::BadSquare { ply, value }) => {
                        self.warnings.push(Warning::BadMove {
                            ply,
                            variation: depth > 0,
                            why: format!("the record names point {value}, off the board"),
                        });
                        break Ok(());
                    }
                    (Validation::Lenient, TreeError::IllegalMove { ply, error }) => {
                        self.warnings.push(Warning::BadMove {
                            ply,
                            variation: depth > 0,
                            why: error.to_string(),
                        });
                        break Ok(());
                    }
                    (_, e) => break Err(e),
                },
            };
            let mut node = Node::new(mv);
            node.comment = self.nodes[cur].comment.clone();
            for &a in alts {
                match self.line(a, &[], pos, depth + 1) {
                    Ok(l) if !l.nodes.is_empty() => node.variations.push(l),
                    Ok(_) => {}
                    Err(e) => {
                        for _ in 0..made {
                            pos.unmake_move();
                        }
                        return Err(e);
                    }
                }
            }
            pos.make_move(mv);
            made += 1;
            line.nodes.push(node);
            match self.nodes[cur].children.split_first() {
                Some((&c, rest)) => {
                    cur = c;
                    alts = rest;
                }
                None => break Ok(()),
            }
        };
        for _ in 0..made {
            pos.unmake_move();
        }
        result.map(|()| line)
    }
}
