//! Names folded the way identity and the line table compare them: full-width and
//! look-alike letters as ASCII, lower case, every run of other characters one space
//! (`fold`), or no spaces at all (`compact`). Its own module, below both `identity` and
//! `lines`, which each compare names so.

/// Latin letters that Cyrillic and Greek ones look like: a look-alike folds onto the
/// letter it imitates, so "Samsung" with a Cyrillic "а" is still Samsung.
fn latin_look_alike(c: char) -> Option<char> {
    Some(match c {
        'А' | 'а' | 'Α' | 'α' => 'a',
        'В' | 'в' | 'Β' | 'β' => 'b',
        'С' | 'с' | 'Ϲ' | 'ϲ' => 'c',
        'Е' | 'е' | 'Ε' | 'ε' => 'e',
        'Н' | 'н' | 'Η' => 'h',
        'І' | 'і' | 'Ι' | 'ι' => 'i',
        'Ј' | 'ј' => 'j',
        'К' | 'к' | 'Κ' | 'κ' => 'k',
        'М' | 'м' | 'Μ' => 'm',
        'Ν' => 'n',
        'О' | 'о' | 'Ο' | 'ο' => 'o',
        'Р' | 'р' | 'Ρ' | 'ρ' => 'p',
        'Ѕ' | 'ѕ' => 's',
        'Т' | 'т' | 'Τ' | 'τ' => 't',
        'Х' | 'х' | 'Χ' | 'χ' => 'x',
        'У' | 'у' | 'Υ' => 'y',
        'Ζ' => 'z',
        _ => return None,
    })
}

/// One character as keys see it: full-width forms as ASCII, look-alikes as Latin,
/// lower case. `None` for a control or format character.
fn fold_char(c: char) -> Option<char> {
    let c = match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' | '\u{00A0}' => ' ',
        _ => c,
    };
    if c.is_control() || matches!(c, '\u{200B}'..='\u{200F}' | '\u{FEFF}' | '\u{2060}') {
        return None;
    }
    Some(latin_look_alike(c).unwrap_or_else(|| c.to_lowercase().next().unwrap_or(c)))
}

/// One character as a new drive's name shows it: like [`fold_char`], case kept.
pub(crate) fn display_char(c: char) -> Option<char> {
    let folded = fold_char(c)?;
    Some(if c.is_uppercase() || ('\u{FF21}'..='\u{FF3A}').contains(&c) {
        folded.to_ascii_uppercase()
    } else {
        folded
    })
}

/// Kana, CJK ideographs and Hangul: scripts written without spaces between words.
fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{31F0}'..='\u{31FF}' | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}' | '\u{FF66}'..='\u{FF9F}')
}

/// Whether the dot at `chars[i]` stays inside a word: between digits ("1.92", "2.5"), or
/// in "M.2", the form factor; a dot after such a word ends it ("M.2.1TB", "1.2.3").
fn kept_dot(chars: &[char], i: usize) -> bool {
    if i == 0 || !chars.get(i + 1).is_some_and(|n| n.is_ascii_digit()) {
        return false;
    }
    let word_start = |at: usize| at == 0 || !chars[at - 1].is_alphanumeric();
    let m_dot_2 =
        chars[i - 1] == 'm' && word_start(i - 1) && chars.get(i + 2).is_none_or(|n| !n.is_alphanumeric());
    let digits_before = chars[..i].iter().rev().take_while(|c| c.is_ascii_digit()).count();
    let first_dot = i > digits_before && chars[i - digits_before - 1] != '.';
    (chars[i - 1].is_ascii_digit() && (i == digits_before || first_dot)) || m_dot_2
}

/// `s` folded into words: full-width and look-alike letters as ASCII, lower case, every
/// run of other characters one space; a dot between digits stays ("1.92").
pub fn fold(s: &str) -> String {
    let chars: Vec<char> = s.chars().filter_map(fold_char).collect();
    let mut out = String::with_capacity(chars.len());
    for (i, &c) in chars.iter().enumerate() {
        let digit_dot = c == '.' && kept_dot(&chars, i);
        // An English possessive is no word ("Crucial's 500GB P1").
        if matches!(c, 's')
            && i > 0
            && matches!(chars[i - 1], '\'' | '\u{2019}')
            && chars.get(i + 1).is_none_or(|n| !n.is_alphanumeric())
        {
            continue;
        }
        // Japanese and Chinese text runs into Latin without a space ("128GBのC300",
        // "ポータブルSSD"): where one script meets the other, a word ends.
        let script_change = i > 0
            && c.is_alphanumeric()
            && chars[i - 1].is_alphanumeric()
            && is_cjk(c) != is_cjk(chars[i - 1]);
        if script_change && !out.ends_with(' ') {
            out.push(' ');
        }
        if c.is_alphanumeric() || digit_dot {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
    }
    out.truncate(out.trim_end().len());
    out
}

/// `s` folded with no spaces or punctuation at all: how part numbers compare
/// ("CTFDDAC064MAG-1G1" and "ctfddac064mag 1g1" are one).
pub fn compact(s: &str) -> String {
    fold(s).chars().filter(|c| c.is_alphanumeric()).collect()
}
