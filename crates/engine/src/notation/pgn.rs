//! PGN for xiangqi in the xqbase form (`protocol.md` §4.4): read and write.
//!
//! ```text
//! [Game "Chinese Chess"]
//! [Event "..."]
//! [Red "..."]
//! [Black "..."]
//! [Result "1-0"]
//! [FEN "..."]            only for a start other than the standard one
//! [Format "WXF"]         "ICCS" or "WXF"; absent = Chinese moves
//! {comment}
//! 1. 炮二平五 馬８進７ {comment}
//! 2. 馬二進三 (2. 兵七進一) 車９平８
//! 1-0
//! ```
//!
//! Reading: several games per file; tags in any order (`[Name "value"]` with `\"`
//! and `\\` escapes, or an unquoted value); `{…}` and `;` comments kept; `(…)`
//! variations kept, nested; NAGs (`$1`) and `!`/`?` suffixes skipped; move numbers
//! (`12.`, `12...`, also glued to the move: `1.炮二平五`) skipped; each move is
//! recognised on its own as ICCS, WXF or Chinese, whatever `[Format]` says, so mixed
//! or mislabelled files read too. A result (`1-0`, `0-1`, `1/2-1/2`, `*`) or the next
//! tag ends a game. Text after a game that is not PGN (the footer xqbase appends,
//! a site's notice) is skipped up to the next tag, with a [`Warning::Skipped`] on
//! the game before it. Decode bytes with [`super::charset::decode`] first (UTF-8 or GBK).
//!
//! A lenient reading ([`read_all_with`], [`Validation::Lenient`]) keeps a line up
//! to a move that cannot be played (a [`Warning::BadMove`]; the rest of the line,
//! or of the variation, is skipped) and a composed `[FEN]` position (a
//! [`Warning::Position`]); a strict one refuses the game.
//!
//! Writing: the tags, then the moves in the chosen notation (ICCS in the `H2-E2`
//! style, with `[Format "ICCS"]`; WXF with `[Format "WXF"]`; Chinese without a
//! `[Format]`, as ElephantEye writes), one move pair per line, comments and
//! variations optionally.

use super::game::{Game, Line, Node};
use super::move_error::MoveError;
use super::warning::Warning;
use super::{IccsStyle, Notation, Script};
use crate::core::{Color, FenError, GameResult, Position, Validation};
use std::fmt;
use std::fmt::Write as _;

/// Deepest nesting of variations read (deeper input is rejected, not recursed into).
pub const MAX_VARIATION_DEPTH: usize = 64;

/// Most words (moves, move numbers) in the movetext of one game, variations
/// included. The longest real games run to a few hundred plies and richly
/// annotated ones to a few thousand words; a game beyond this is refused
/// ([`PgnErrorKind::TooLong`]) as soon as the reader gets there, and the rest of
/// its movetext is skipped without being kept, so a file of one endless game
/// costs no more memory than its text.
pub const MAX_GAME_WORDS: usize = 50_000;

/// What was wrong with a game in a PGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// The text holds no game at all.
    NoGame,
    /// A tag that is not `[Name "value"]`.
    BadTag,
    /// The `[FEN]` tag is not a legal position.
    BadFen(FenError),
    /// A move that cannot be played.
    BadMove {
        /// The full-move number at that point.
        fullmove: u32,
        /// The side whose move it was.
        side: Color,
        /// Why it cannot be played.
        error: MoveError,
    },
    /// A `{` comment never closed.
    UnclosedComment,
    /// A `)` without `(`, or a variation not closed before the game ends.
    UnbalancedVariation,
    /// A variation before any move it could be an alternative to.
    VariationWithoutMove,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
    /// More than [`MAX_GAME_WORDS`] words of movetext.
    TooLong,
}

/// A game of a PGN file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// Which game of the file (1 = the first).
    pub game: usize,
    /// The line (1-based) where the problem was found.
    pub line: usize,
    /// What was wrong.
    pub kind: PgnErrorKind,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, line {}: ", self.game, self.line)?;
        match &self.kind {
            PgnErrorKind::NoGame => f.write_str("no game found"),
            PgnErrorKind::BadTag => f.write_str("a tag is not of the form [Name \"value\"]"),
            PgnErrorKind::BadFen(e) => write!(f, "[FEN] tag: {e}"),
            PgnErrorKind::BadMove {
                fullmove,
                side,
                error,
            } => write!(f, "move {fullmove} ({side}): {error}"),
            PgnErrorKind::UnclosedComment => f.write_str("a { comment is never closed"),
            PgnErrorKind::UnbalancedVariation => {
                f.write_str("variation parentheses do not balance")
            }
            PgnErrorKind::VariationWithoutMove => f.write_str("a variation comes before any move"),
            PgnErrorKind::TooDeep => {
                write!(f, "variations nested more than {MAX_VARIATION_DEPTH} deep")
            }
            PgnErrorKind::TooLong => {
                write!(f, "more than {MAX_GAME_WORDS} words of moves in one game")
            }
        }
    }
}

impl std::error::Error for PgnError {}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Tag(String, String),
    BadTag,
    Comment(String),
    UnclosedComment,
    Open,
    Close,
    Result(Option<GameResult>),
    Word(String),
    /// The movetext went on beyond [`MAX_GAME_WORDS`]; the rest of it, up to the
    /// next tag or result, is not kept.
    TooLong,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
}

fn is_delim(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';')
}

/// The tokens lexed so far, counting each game's words to stop keeping them
/// beyond [`MAX_GAME_WORDS`].
#[derive(Default)]
struct Tokens {
    kept: Vec<Token>,
    /// Words since the last tag or result.
    words: usize,
}

impl Tokens {
    fn push_token(&mut self, t: Token) {
        match t.tok {
            Tok::Tag(..) | Tok::BadTag | Tok::Result(_) => self.words = 0,
            _ if self.words > MAX_GAME_WORDS => return,
            Tok::Word(_) => {
                self.words += 1;
                if self.words > MAX_GAME_WORDS {
                    self.kept.push(Token {
                        tok: Tok::TooLong,
                        line: t.line,
                    });
                    return;
                }
            }
            _ => {}
        }
        self.kept.push(t);
    }
}

fn lex(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Tokens::default();
    let mut i = 0;
    let mut line = 1;
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_whitespace() || c == '\u{FEFF}' {
            i += 1;
            continue;
        }
        let at_line_start = line_start;
        line_start = false;
        let here = line;
        match c {
            '%' if at_line_start => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ';' => {
                let s = i + 1;
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                let body: String = chars[s..i].iter().collect();
                out.push_token(Token {
                    tok: Tok::Comment(body.trim().to_string()),
                    line: here,
                });
            }
            '{' => {
                let s = i + 1;
                i += 1;
                while i < chars.len() && chars[i] != '}' {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
                if i >= chars.len() {
                    out.push_token(Token {
                        tok: Tok::UnclosedComment,
                        line: here,
                    });
                } else {
                    let body: String = chars[s..i].iter().collect();
                    out.push_token(Token {
                        tok: Tok::Comment(body.trim().to_string()),
                        line: here,
                    });
                    i += 1;
                }
            }
            '[' => {
                let (tok, next) = lex_tag(&chars, i);
                out.push_token(Token { tok, line: here });
                i = next;
            }
            '(' => {
                out.push_token(Token {
                    tok: Tok::Open,
                    line: here,
                });
                i += 1;
            }
            ')' => {
                out.push_token(Token {
                    tok: Tok::Close,
                    line: here,
                });
                i += 1;
            }
            '}' | ']' => i += 1,
            '$' => {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            _ => {
                let s = i;
                while i < chars.len() && !is_delim(chars[i]) {
                    i += 1;
                }
                let w: String = chars[s..i].iter().collect();
                let tok = match GameResult::parse_pgn(&w) {
                    Some(r) => Tok::Result(r),
                    None => Tok::Word(w),
                };
                out.push_token(Token { tok, line: here });
            }
        }
    }
    out.kept
}

/// Lexes `[Name "value"]` starting at `chars[i] == '['`; stops at the end of the line.
fn lex_tag(chars: &[char], mut i: usize) -> (Tok, usize) {
    i += 1;
    let skip_ws = |i: &mut usize| {
        while *i < chars.len() && chars[*i] != '\n' && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    let s = i;
    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
        i += 1;
    }
    let name: String = chars[s..i].iter().collect();
    skip_ws(&mut i);
    let mut value = String::new();
    if i < chars.len() && chars[i] == '"' {
        i += 1;
        loop {
            match chars.get(i) {
                None | Some('\n') => return (Tok::BadTag, i),
                Some('\\') if matches!(chars.get(i + 1), Some('"') | Some('\\')) => {
                    value.push(chars[i + 1]);
                    i += 2;
                }
                Some('"') => {
                    i += 1;
                    break;
                }
                Some(&c) => {
                    value.push(c);
                    i += 1;
                }
            }
        }
        skip_ws(&mut i);
        if chars.get(i) != Some(&']') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            return (Tok::BadTag, i);
        }
        i += 1;
    } else {
        while i < chars.len() && chars[i] != ']' && chars[i] != '\n' {
            value.push(chars[i]);
            i += 1;
        }
        if chars.get(i) != Some(&']') {
            return (Tok::BadTag, i);
        }
        i += 1;
    }
    if name.is_empty() {
        return (Tok::BadTag, i);
    }
    (Tok::Tag(name, value.trim().to_string()), i)
}

struct Parser {
    toks: Vec<Token>,
    at: usize,
    game: usize,
    validation: Validation,
    /// The warnings of the game being read.
    warnings: Vec<Warning>,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.tok)
    }

    fn line(&self) -> usize {
        self.toks
            .get(self.at)
            .or_else(|| self.toks.last())
            .map_or(1, |t| t.line)
    }

    fn err(&self, kind: PgnErrorKind) -> PgnError {
        PgnError {
            game: self.game,
            line: self.line(),
            kind,
        }
    }

    /// Skips what is left of a broken game: the rest of its tags, then everything up
    /// to its result (included) or the next tag (excluded).
    fn recover(&mut self) {
        while matches!(self.peek(), Some(Tok::Tag(..) | Tok::BadTag)) {
            self.at += 1;
        }
        while let Some(t) = self.peek() {
            match t {
                Tok::Tag(..) | Tok::BadTag => break,
                Tok::Result(_) => {
                    self.at += 1;
                    break;
                }
                _ => self.at += 1,
            }
        }
    }

    fn game(&mut self) -> Result<Game, PgnError> {
        self.warnings.clear();
        let mut tags = Vec::new();
        let mut fen = None;
        let mut tag_result = None;
        let mut bad_tag = None;
        while let Some(t) = self.peek() {
            match t {
                Tok::Tag(k, v) => {
                    if k.eq_ignore_ascii_case("FEN") {
                        fen = Some((v.clone(), self.line()));
                    } else if k.eq_ignore_ascii_case("Result") {
                        tag_result = GameResult::parse_pgn(v);
                    } else if !k.eq_ignore_ascii_case("Game") && !k.eq_ignore_ascii_case("Format") {
                        tags.push((k.clone(), v.clone()));
                    }
                }
                Tok::BadTag => {
                    bad_tag.get_or_insert(self.line());
                }
                _ => break,
            }
            self.at += 1;
        }
        if let Some(line) = bad_tag {
            return Err(PgnError {
                game: self.game,
                line,
                kind: PgnErrorKind::BadTag,
            });
        }
        let start = match fen {
            None => Position::startpos(),
            Some((f, _)) if f.trim().is_empty() => Position::startpos(),
            Some((f, line)) => {
                let (pos, notes) =
                    Position::from_fen_with(&f, self.validation).map_err(|e| PgnError {
                        game: self.game,
                        line,
                        kind: PgnErrorKind::BadFen(e),
                    })?;
                self.warnings
                    .extend(notes.into_iter().map(Warning::Position));
                pos
            }
        };
        let mut game = Game::new(start);
        game.tags = tags;
        let mut pos = game.start.clone();
        game.line = self.line_of_moves(&mut pos, 0)?;
        game.result = match self.peek() {
            Some(Tok::Result(r)) => {
                let r = *r;
                self.at += 1;
                r
            }
            _ => tag_result.flatten(),
        };
        game.warnings = std::mem::take(&mut self.warnings);
        Ok(game)
    }

    /// Whether the tokens from here to the next tag are text that is not PGN: no
    /// tag, and the first word that is not a move number is not a move from the
    /// start position (`======`, a site's notice).
    fn at_junk(&self) -> bool {
        let start = Position::startpos();
        for t in &self.toks[self.at..] {
            match &t.tok {
                Tok::Tag(..) | Tok::BadTag | Tok::Result(_) => return false,
                Tok::Word(w) => {
                    let w = w.trim_end_matches(['!', '?']);
                    if w.is_empty() || is_move_number(w) {
                        continue;
                    }
                    return super::parse_move(&start, strip_move_number(w)).is_err();
                }
                _ => return true,
            }
        }
        false
    }

    /// Skips to the next tag (or the end of the text); returns the line where the
    /// skipped text began.
    fn skip_junk(&mut self) -> usize {
        let line = self.line();
        while !matches!(self.peek(), None | Some(Tok::Tag(..) | Tok::BadTag)) {
            self.at += 1;
        }
        line
    }

    /// The game's movetext ends here (a result, a tag, the end of the text): fine
    /// for the main line, an unclosed variation at `depth` > 0.
    fn end_of_game(&self, depth: usize) -> Result<(), PgnError> {
        if depth > 0 {
            return Err(self.err(PgnErrorKind::UnbalancedVariation));
        }
        Ok(())
    }

    /// After a move that cannot be played (lenient reading): skips the rest of the
    /// line, up to the game's end at `depth` 0, or past the `)` that closes the
    /// variation otherwise.
    fn skip_rest_of_line(&mut self, depth: usize) -> Result<(), PgnError> {
        let mut nested = 0usize;
        loop {
            match self.peek() {
                None | Some(Tok::Tag(..) | Tok::BadTag | Tok::Result(_)) => {
                    return self.end_of_game(depth);
                }
                Some(Tok::Open) => nested += 1,
                Some(Tok::Close) if depth > 0 && nested == 0 => {
                    self.at += 1;
                    return Ok(());
                }
                Some(Tok::Close) => nested = nested.saturating_sub(1),
                _ => {}
            }
            self.at += 1;
        }
    }

    /// Reads moves until the line ends (a result, a tag, the end of the text, or a
    /// `)` when `depth > 0`). Leaves `pos` as it found it.
    fn line_of_moves(&mut self, pos: &mut Position, depth: usize) -> Result<Line, PgnError> {
        let mut line = Line::default();
        let result = self.fill_line(&mut line, pos, depth);
        for _ in 0..line.nodes.len() {
            pos.unmake_move();
        }
        result.map(|()| line)
    }

    /// The body of [`Parser::line_of_moves`]: plays each move read on `pos` and
    /// records it in `line`, so the caller can take them all back, error or not.
    fn fill_line(
        &mut self,
        line: &mut Line,
        pos: &mut Position,
        depth: usize,
    ) -> Result<(), PgnError> {
        loop {
            match self.peek() {
                None | Some(Tok::Tag(..) | Tok::BadTag | Tok::Result(_)) => {
                    return self.end_of_game(depth);
                }
                Some(Tok::Close) => {
                    if depth == 0 {
                        return Err(self.err(PgnErrorKind::UnbalancedVariation));
                    }
                    self.at += 1;
                    return Ok(());
                }
                Some(Tok::UnclosedComment) => {
                    return Err(self.err(PgnErrorKind::UnclosedComment));
                }
                Some(Tok::TooLong) => return Err(self.err(PgnErrorKind::TooLong)),
                Some(Tok::Comment(c)) => {
                    let c = c.clone();
                    self.at += 1;
                    let slot = match line.nodes.last_mut() {
                        Some(n) => &mut n.comment,
                        None => &mut line.comment,
                    };
                    append(slot, &c);
                }
                Some(Tok::Open) => {
                    if depth + 1 > MAX_VARIATION_DEPTH {
                        return Err(self.err(PgnErrorKind::TooDeep));
                    }
                    let Some(last) = line.nodes.last().map(|n| n.mv) else {
                        return Err(self.err(PgnErrorKind::VariationWithoutMove));
                    };
                    self.at += 1;
                    // The variation replaces the last move: read it from the
                    // position before that move (it restores the position itself).
                    pos.unmake_move();
                    let var = self.line_of_moves(pos, depth + 1);
                    pos.make_move(last);
                    let var = var?;
                    // A variation whose first move could not be played (lenient
                    // reading) is dropped; its warning says so.
                    let empty = var.nodes.is_empty() && var.comment.is_none();
                    if let Some(n) = line.nodes.last_mut().filter(|_| !empty) {
                        n.variations.push(var);
                    }
                }
                Some(Tok::Word(w)) => {
                    let w = w.clone();
                    let line_no = self.line();
                    self.at += 1;
                    match self.word_move(pos, &w, line_no) {
                        Ok(Some(mv)) => {
                            pos.make_move(mv);
                            line.nodes.push(Node::new(mv));
                        }
                        Ok(None) => {}
                        Err(PgnError {
                            kind: PgnErrorKind::BadMove { error, .. },
                            ..
                        }) if self.validation == Validation::Lenient => {
                            self.warnings.push(Warning::BadMove {
                                ply: pos.game_ply() + 1,
                                variation: depth > 0,
                                why: error.to_string(),
                            });
                            return self.skip_rest_of_line(depth);
                        }
                        Err(e) => return Err(e),
                    }
                }
            }
        }
    }

    /// The move in a movetext word, `None` for a bare move number.
    fn word_move(
        &self,
        pos: &Position,
        word: &str,
        line: usize,
    ) -> Result<Option<crate::core::Move>, PgnError> {
        let w = word.trim_end_matches(['!', '?']);
        if w.is_empty() || is_move_number(w) {
            return Ok(None);
        }
        let first = match super::parse_move(pos, w) {
            Ok(mv) => return Ok(Some(mv)),
            Err(e) => e,
        };
        let rest = strip_move_number(w);
        let error = if rest.len() < w.len() && !rest.is_empty() {
            match super::parse_move(pos, rest) {
                Ok(mv) => return Ok(Some(mv)),
                Err(e) => e,
            }
        } else {
            first
        };
        Err(PgnError {
            game: self.game,
            line,
            kind: PgnErrorKind::BadMove {
                fullmove: pos.fullmove(),
                side: pos.side_to_move(),
                error,
            },
        })
    }
}

fn append(slot: &mut Option<String>, text: &str) {
    match slot {
        Some(s) => {
            s.push('\n');
            s.push_str(text);
        }
        None => *slot = Some(text.to_string()),
    }
}

/// `12.`, `12...`, `...`, `12`: a move number alone.
fn is_move_number(w: &str) -> bool {
    let digits = w.trim_end_matches(['.', '。', '．']);
    digits.chars().all(|c| c.is_ascii_digit())
}

/// `12.炮二平五` -> `炮二平五`; `12...` prefixes too.
fn strip_move_number(w: &str) -> &str {
    let no_digits = w.trim_start_matches(|c: char| c.is_ascii_digit());
    if no_digits.len() == w.len() {
        return w;
    }
    let rest = no_digits.trim_start_matches(['.', '。', '．']);
    if rest.len() == no_digits.len() {
        w
    } else {
        rest
    }
}

/// Reads every game of a PGN text strictly ([`read_all_with`] and
/// [`Validation::Strict`]).
pub fn read_all(text: &str) -> Vec<Result<Game, PgnError>> {
    read_all_with(text, Validation::Strict)
}

/// Reads every game of a PGN text; a broken game gives an error in its place and
/// reading goes on with the next one. Text between games that is not PGN is
/// skipped with a [`Warning::Skipped`]; `validation` says whether a move that
/// cannot be played and a composed `[FEN]` are kept with a warning or refused.
///
/// ```
/// use chuhan_engine::core::Validation;
/// use chuhan_engine::notation::{pgn, Warning};
/// let text = "[Game \"Chinese Chess\"]\n1. h2e2 h9g7 2. h0g2 a0a5 1-0\n\
///             ======================\n欢迎访问象棋百科全书网站\n";
/// let games = pgn::read_all_with(text, Validation::Lenient);
/// let game = games[0].as_ref().unwrap();
/// assert_eq!(game.ply_count(), 3);
/// assert!(matches!(game.warnings[0], Warning::BadMove { ply: 4, .. }));
/// assert!(matches!(game.warnings[1], Warning::Skipped { line: 3, .. }));
/// assert!(pgn::read_all_with(text, Validation::Strict)[0].is_err());
/// ```
pub fn read_all_with(text: &str, validation: Validation) -> Vec<Result<Game, PgnError>> {
    let mut out = Vec::new();
    read_each_with(text, validation, |g| out.push(g));
    out
}

/// [`read_all_with`], handing each game (or its error) to `each` in file order
/// as soon as it is read, instead of keeping them all: reading one game of a
/// large library costs the memory of one game.
pub fn read_each_with(
    text: &str,
    validation: Validation,
    mut each: impl FnMut(Result<Game, PgnError>),
) {
    let mut p = Parser {
        toks: lex(text),
        at: 0,
        game: 0,
        validation,
        warnings: Vec::new(),
    };
    // The last game read, kept until the next one starts: text after it that is
    // not PGN is noted in its warnings.
    let mut last: Option<Result<Game, PgnError>> = None;
    while p.at < p.toks.len() {
        // Text after a game that is not PGN; text before the first game is read as
        // a game, so that a broken first move is reported as one.
        if last.is_some() && p.at_junk() {
            let line = p.skip_junk();
            let text = text.lines().nth(line - 1).unwrap_or("").trim().to_string();
            if let Some(Ok(g)) = last.as_mut() {
                g.warnings.push(Warning::Skipped { line, text });
            }
            continue;
        }
        p.game += 1;
        let before = p.at;
        match p.game() {
            Ok(g) => {
                let seen = p.toks[before..p.at]
                    .iter()
                    .any(|t| !matches!(t.tok, Tok::Result(_)));
                if seen && let Some(done) = last.replace(Ok(g)) {
                    each(done);
                }
            }
            Err(e) => {
                if let Some(done) = last.replace(Err(e)) {
                    each(done);
                }
                p.recover();
            }
        }
        if p.at == before {
            // Nothing consumed (a stray token): skip it.
            p.at += 1;
            p.game -= 1;
        }
    }
    if let Some(done) = last {
        each(done);
    }
}

/// Reads every game of a PGN text, failing on the first broken one.
///
/// ```
/// use chuhan_engine::notation::pgn;
/// let text = "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 1-0\n";
/// let games = pgn::read(text).unwrap();
/// assert_eq!(games.len(), 1);
/// let moves: Vec<String> = games[0].moves().iter().map(|m| m.to_string()).collect();
/// assert_eq!(moves, ["h2e2", "h9g7", "h0g2"]);
/// ```
pub fn read(text: &str) -> Result<Vec<Game>, PgnError> {
    let games: Result<Vec<Game>, PgnError> = read_all(text).into_iter().collect();
    let games = games?;
    if games.is_empty() {
        return Err(PgnError {
            game: 1,
            line: 1,
            kind: PgnErrorKind::NoGame,
        });
    }
    Ok(games)
}

/// How to write PGN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The move notation (ICCS is written `H2-E2` whatever its style).
    pub notation: Notation,
    /// Write comments.
    pub comments: bool,
    /// Write variations.
    pub variations: bool,
}

impl Default for WriteOptions {
    /// Chinese (traditional) moves, comments and variations kept.
    fn default() -> WriteOptions {
        WriteOptions {
            notation: Notation::Chinese(Script::Traditional),
            comments: true,
            variations: true,
        }
    }
}

fn escape_tag(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

fn escape_comment(c: &str) -> String {
    c.replace('}', "｝")
}

/// Writes one game.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::notation::{pgn, Game, Notation};
/// let mut g = Game::new(Position::startpos());
/// g.push("h2e2".parse().unwrap());
/// let opts = pgn::WriteOptions { notation: Notation::Wxf, ..Default::default() };
/// let text = pgn::write(&g, &opts).unwrap();
/// assert!(text.contains("[Format \"WXF\"]") && text.contains("1. C2.5"));
/// assert_eq!(pgn::read(&text).unwrap()[0], g);
/// ```
pub fn write(game: &Game, opts: &WriteOptions) -> Result<String, MoveError> {
    let mut out = String::new();
    out.push_str("[Game \"Chinese Chess\"]\n");
    for (k, v) in &game.tags {
        let _ = writeln!(out, "[{k} \"{}\"]", escape_tag(v));
    }
    let _ = writeln!(
        out,
        "[Result \"{}\"]",
        GameResult::pgn_or_unknown(game.result)
    );
    if game.start != Position::startpos() {
        let _ = writeln!(out, "[FEN \"{}\"]", game.start.to_fen());
    }
    let notation = match opts.notation {
        Notation::Iccs(_) => {
            out.push_str("[Format \"ICCS\"]\n");
            Notation::Iccs(IccsStyle::Dashed)
        }
        Notation::Wxf => {
            out.push_str("[Format \"WXF\"]\n");
            Notation::Wxf
        }
        n => n,
    };
    let mut pos = game.start.clone();
    let mut body = String::new();
    write_line(&mut body, &mut pos, &game.line, notation, opts, 0)?;
    out.push_str(body.trim_start_matches(' '));
    if !body.is_empty() && !body.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "{}", GameResult::pgn_or_unknown(game.result));
    Ok(out)
}

/// Writes several games, separated by blank lines.
pub fn write_all(games: &[Game], opts: &WriteOptions) -> Result<String, MoveError> {
    let mut out = String::new();
    for (i, g) in games.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&write(g, opts)?);
    }
    Ok(out)
}

fn write_line(
    out: &mut String,
    pos: &mut Position,
    line: &Line,
    notation: Notation,
    opts: &WriteOptions,
    depth: usize,
) -> Result<(), MoveError> {
    let mut need_number = true;
    if opts.comments
        && let Some(c) = &line.comment
    {
        let _ = write!(out, "{{{}}}", escape_comment(c));
        if depth == 0 {
            out.push('\n');
        }
    }
    let mut made = 0;
    let mut result = Ok(());
    for node in &line.nodes {
        let text = match notation.format(pos, node.mv) {
            Ok(t) => t,
            Err(e) => {
                result = Err(e);
                break;
            }
        };
        let n = pos.fullmove();
        if pos.side_to_move() == Color::Red {
            if depth == 0 && !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            } else if !out.is_empty() && !out.ends_with(['\n', '(']) {
                out.push(' ');
            }
            let _ = write!(out, "{n}. {text}");
        } else {
            if !out.is_empty() && !out.ends_with(['\n', '(']) {
                out.push(' ');
            }
            if need_number {
                let _ = write!(out, "{n}... {text}");
            } else {
                out.push_str(&text);
            }
        }
        need_number = false;
        if opts.comments
            && let Some(c) = &node.comment
        {
            let _ = write!(out, " {{{}}}", escape_comment(c));
            need_number = true;
        }
        if opts.variations {
            for var in &node.variations {
                out.push_str(" (");
                if let Err(e) = write_line(out, pos, var, notation, opts, depth + 1) {
                    result = Err(e);
                    break;
                }
                out.push(')');
                need_number = true;
            }
            if result.is_err() {
                break;
            }
        }
        pos.make_move(node.mv);
        made += 1;
    }
    for _ in 0..made {
        pos.unmake_move();
    }
    result
}
