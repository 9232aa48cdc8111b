//! Drive search as people type, by the text search each database ships with: SQLite's
//! FTS5 with its trigram tokenizer and PostgreSQL's pg_trgm (migrations 0023, 0024). Both index
//! the same folded text per drive (`bench::identity::search_text`), and both answer a
//! word of three characters or more anywhere in it from a trigram index: no engine to run
//! and keep in step beside the database, and the same answers on both backends.
//!
//! A query's words must all be in a drive's text: a long word anywhere (a prefix, a part
//! of a compact part number), a word of one or two characters ("p2") at a word's start.
//! A part number or model string of a line the table knows finds that line's drive
//! first. Drives are ranked: the drive whose whole model the query names, then reviewed
//! drives, then those whose words the query's begin, then most results. When nothing
//! matches, the query is asked again compact (a part number typed with spaces), then
//! with each word of letters that begins no vocabulary word replaced by the vocabulary's
//! words one typo away from it. A drive's search row goes with it (`ON DELETE CASCADE`).
//!
//! Each search row carries its drive's rank (migration 0024: reviewed first, then most
//! results), kept by a trigger on `drives`. On SQLite it is the row's FTS5 rowid, so a
//! query reads its matches best first and stops at a page; on PostgreSQL the matches'
//! rows are sorted by it before any drive is read.

use crate::sql::{self, from_json, Param};
use crate::{DriveRow, Storage, StorageResult};
use bench::identity::{self, SearchQuery};
use bench::DriveSku;

/// A drive's search row and the vocabulary words it brings, as statement texts and
/// parameters: the row upserted by `upsert` (the backend's [`SQLITE_UPSERT`] or
/// [`POSTGRES_UPSERT`]), the words inserted when new.
pub fn write_statements(d: &DriveSku, upsert: &str) -> Vec<(String, Vec<Param>)> {
    let body = identity::search_text(d);
    let mut out =
        vec![(upsert.to_string(), vec![Param::Text(Some(d.id.clone())), Param::Text(Some(body.clone()))])];
    let words: Vec<Vec<Param>> =
        identity::vocabulary(&body).map(|w| vec![Param::Text(Some(w.to_string()))]).collect();
    out.extend(sql::insert_rows(
        "drive_search_words",
        &["word"],
        words,
        sql::SQLITE_INSERT_PARAMS,
        " ON CONFLICT DO NOTHING",
    ));
    out
}

/// A drive's search row on SQLite (`$1` the drive, `$2` its text). Its `rank`, the
/// rowid FTS5 keeps its matches in, orders drives as a search ranks them (migration
/// 0024): reviewed first, then most results, then the order they came in (`serial`, one
/// more than the last). A trigger on `drives` moves the row when its rank changes. A row
/// already as it should be is left alone (its FTS5 row is not written again).
pub const SQLITE_UPSERT: &str = "INSERT INTO drive_search (rank, serial, drive_id, body) \
     SELECT ((1 - d.reviewed) << 61) | ((16777215 - min(d.result_count, 16777215)) << 37) | n.serial, \
     n.serial, d.id, $2 \
     FROM drives d, (SELECT COALESCE(MAX(serial), 0) + 1 AS serial FROM drive_search) n WHERE d.id = $1 \
     ON CONFLICT (drive_id) DO UPDATE SET body = excluded.body WHERE body <> excluded.body";

/// The same on PostgreSQL, whose `rank` (reviewed first, then most results) a trigger
/// reads from the drive (migration 0024). A row already as it should be is left alone
/// (a submission naming a known drive writes nothing here); otherwise the drive's row is
/// locked first, as the trigger that moves a rank locks it before the search row: in the
/// other order two submissions of one new drive deadlocked.
pub const POSTGRES_UPSERT: &str = "WITH drive AS (SELECT id FROM drives WHERE id = $1 \
     AND NOT EXISTS (SELECT 1 FROM drive_search WHERE drive_id = $1 AND body = $2) FOR NO KEY UPDATE) \
     INSERT INTO drive_search (drive_id, body) SELECT id, $2 FROM drive \
     ON CONFLICT (drive_id) DO UPDATE SET body = excluded.body";

/// Both tables emptied before every drive's row is written again (a new key layout).
pub const DELETE_ALL: [&str; 2] = ["DELETE FROM drive_search", "DELETE FROM drive_search_words"];

/// Whether a term is long enough for the trigram index (three characters).
fn indexed(word: &str) -> bool {
    word.chars().count() >= 3
}

/// A query's long terms as an FTS5 query: each term one of its words, quoted as
/// strings, so any substring of three characters or more. `None` when no term is long
/// enough for the index.
pub fn sqlite_match(q: &SearchQuery) -> Option<String> {
    let long: Vec<String> = q
        .terms
        .iter()
        .filter(|t| t.iter().all(|w| indexed(w)))
        .map(|t| format!("({})", t.iter().map(|w| format!("\"{w}\"")).collect::<Vec<_>>().join(" OR ")))
        .collect();
    (!long.is_empty()).then(|| long.join(" AND "))
}

/// The SQL and parameters of one search on SQLite (`$1` the FTS5 query of
/// [`sqlite_match`]): FTS5 gives its matches in rowid order, which is the drives' rank
/// (migration 0024), so the first `limit` matches that also have the short terms at a
/// word's start are the best, read without sorting ("samsung" matches 15,000 of 100,000
/// drives: 2 ms).
pub fn sqlite_sql(q: &SearchQuery, fts: String, limit: i64) -> (String, Vec<Param>) {
    let mut params = vec![Param::Text(Some(fts))];
    let mut sql = "SELECT d.spec, d.result_count, s.body FROM drive_search_fts f \
         JOIN drive_search s ON s.rank = f.rowid JOIN drives d ON d.id = s.drive_id \
         WHERE drive_search_fts MATCH $1"
        .to_string();
    for t in q.terms.iter().filter(|t| !t.iter().all(|w| indexed(w))) {
        sql += &format!(" AND ({})", word_starts(t, &mut params));
    }
    params.push(Param::Int(Some(limit)));
    sql += &format!(" ORDER BY f.rowid LIMIT ${}", params.len());
    (sql, params)
}

/// The SQL and parameters of one search on PostgreSQL: each term a LIKE on the text (the
/// GIN trigram index answers those of three characters or more), short ones at a word's
/// start. `None` when no term is long enough for the index.
pub fn postgres_sql(q: &SearchQuery, limit: i64) -> Option<(String, Vec<Param>)> {
    if !q.terms.iter().any(|t| t.iter().all(|w| indexed(w))) {
        return None;
    }
    let mut params = Vec::new();
    let mut conditions = Vec::new();
    for t in &q.terms {
        if t.iter().all(|w| indexed(w)) {
            let any: Vec<String> = t
                .iter()
                .map(|w| {
                    params.push(Param::Text(Some(format!("%{w}%"))));
                    format!("s.body LIKE ${}", params.len())
                })
                .collect();
            conditions.push(format!("({})", any.join(" OR ")));
        } else {
            conditions.push(format!("({})", word_starts(t, &mut params)));
        }
    }
    params.push(Param::Int(Some(limit)));
    // The matches sorted by their rank alone (migration 0024), the page's drives joined
    // after.
    let sql = format!(
        "SELECT d.spec, d.result_count, s.body FROM \
         (SELECT drive_id, body, rank FROM drive_search s WHERE {} ORDER BY rank, drive_id LIMIT ${}) s \
         JOIN drives d ON d.id = s.drive_id ORDER BY s.rank, s.drive_id",
        conditions.join(" AND "),
        params.len()
    );
    Some((sql, params))
}

/// A term whose words begin a word of the text: `' ' || body LIKE '% word%'`.
fn word_starts(term: &[String], params: &mut Vec<Param>) -> String {
    term.iter()
        .map(|w| {
            params.push(Param::Text(Some(format!("% {w}%"))));
            format!("(' ' || s.body) LIKE ${}", params.len())
        })
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// The vocabulary words that may be `word` with one typo, by shared trigrams, on SQLite.
pub fn sqlite_similar_sql(word: &str, limit: i64) -> Option<(String, Vec<Param>)> {
    let grams = trigrams(word);
    (!grams.is_empty()).then(|| {
        let query = grams.iter().map(|g| format!("\"{g}\"")).collect::<Vec<_>>().join(" OR ");
        (
            "SELECT w.word FROM drive_search_words_fts f JOIN drive_search_words w ON w.rowid = f.rowid \
             WHERE drive_search_words_fts MATCH $1 ORDER BY f.rank LIMIT $2"
                .to_string(),
            vec![Param::Text(Some(query)), Param::Int(Some(limit))],
        )
    })
}

/// The same on PostgreSQL: pg_trgm's similarity operator, nearest first.
pub const POSTGRES_SIMILAR: &str =
    "SELECT word FROM drive_search_words WHERE word % $1 ORDER BY word <-> $1, word LIMIT $2";

/// The distinct trigrams of a word.
fn trigrams(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut grams: Vec<String> = chars.windows(3).map(|w| w.iter().collect()).collect();
    grams.sort();
    grams.dedup();
    grams
}

/// A search row as read: the drive, its visible result count and its search text.
pub fn row((spec, result_count, body): (String, i64, String)) -> StorageResult<(DriveRow, String)> {
    Ok((DriveRow { drive: from_json(&spec)?, result_count }, body))
}

/// At most this many drives are read for a search, then ranked: a few pages of the
/// answer.
const READ: i64 = 50;

/// How many of a query's words are checked for a typo.
const TYPO_WORDS: usize = 4;

/// How many vocabulary neighbours of a word are looked at for one typo.
const NEIGHBOURS: i64 = 32;

/// The drives a search as typed finds, best first, at most `limit`: `None` when the
/// query has no word long enough for the text index (one or two characters, which the
/// caller answers from the drives' key prefixes).
pub async fn find(
    storage: &dyn Storage,
    query: &SearchQuery,
    limit: usize,
) -> StorageResult<Option<Vec<DriveRow>>> {
    let ranked = |mut rows: Vec<(DriveRow, String)>, q: &SearchQuery| {
        // Drives whose whole model line the query names first (a search for "970 evo" is
        // for the 970 EVO before the 970 EVO Plus), then reviewed drives, then drives whose
        // words the query's begin, then most results.
        rows.sort_by_cached_key(|(d, body)| {
            let (whole, starts) = identity::search_rank(q, &d.drive, body);
            (!whole, !d.drive.reviewed, std::cmp::Reverse(starts), std::cmp::Reverse(d.result_count))
        });
        rows.into_iter().take(limit).map(|(d, _)| d).collect::<Vec<_>>()
    };
    // A part number or model string of a line the table knows names its drive whatever
    // SSDBase has written of it ("CTFDDAC256MAG" is a RealSSD C300 256 GB): those drives
    // first.
    let mut named = Vec::new();
    if let Some(key) = identity::Identity::from_model_string(&query.text).line_key() {
        let drives = storage.drives_by_keys(std::slice::from_ref(&key)).await?;
        let ids: Vec<String> = drives.iter().map(|(_, d)| d.id.clone()).collect();
        let counts = storage.result_counts(&ids).await?;
        named = drives
            .into_iter()
            .map(|(_, d)| DriveRow { result_count: counts.get(&d.id).copied().unwrap_or(0), drive: d })
            .collect();
    }
    let with_named = |rows: Vec<DriveRow>| -> Vec<DriveRow> {
        let mut out = named.clone();
        out.extend(rows.into_iter().filter(|r| !named.iter().any(|n| n.drive.id == r.drive.id)));
        out.truncate(limit);
        out
    };
    let Some(rows) = storage.drives_by_text(query, READ).await? else {
        return Ok((!named.is_empty()).then(|| with_named(Vec::new())));
    };
    if !rows.is_empty() || !named.is_empty() {
        return Ok(Some(with_named(ranked(rows, query))));
    }
    // A part number typed with spaces ("CT 1000 MX500"), as one word.
    if query.terms.len() > 1 && indexed(&query.compact) {
        let whole = SearchQuery {
            terms: vec![vec![query.compact.clone()]],
            compact: query.compact.clone(),
            text: query.text.clone(),
        };
        let rows = storage.drives_by_text(&whole, READ).await?.unwrap_or_default();
        if !rows.is_empty() {
            return Ok(Some(ranked(rows, &whole)));
        }
    }
    // One typo: a word of letters that begins no vocabulary word may be one typo from
    // one (the first few such words: each costs a query of the vocabulary).
    let mut fixed = query.clone();
    let mut changed = false;
    for term in fixed.terms.iter_mut().filter(|t| identity::typo_correctable(&t[0])).take(TYPO_WORDS) {
        let word = term[0].clone();
        let neighbours = storage.similar_words(&word, NEIGHBOURS).await?;
        if neighbours.iter().any(|w| w.starts_with(&word)) {
            continue;
        }
        let near: Vec<String> =
            neighbours.into_iter().filter(|w| identity::one_typo_away(&word, w)).collect();
        if !near.is_empty() {
            *term = near;
            changed = true;
        }
    }
    if !changed {
        return Ok(Some(Vec::new()));
    }
    let rows = storage.drives_by_text(&fixed, READ).await?.unwrap_or_default();
    Ok(Some(ranked(rows, &fixed)))
}
