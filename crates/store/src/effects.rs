//! The factor effects (`bench::effects`, migration 0013), derived from results and kept
//! in step with them, so that `/effects` reads finished rows instead of every metric:
//! - `effects_stale`: drives whose results changed since their effects were computed.
//!   [`mark_stale`] is called by the compare summary's maintenance (`summary`), in the
//!   transaction of every change; each mark bumps the drive's generation, so a change
//!   made while a refresh computes is not lost when the refresh clears its mark.
//! - `effect_units` and `effect_left_out`: per drive, its effects (one row per factor,
//!   pair of values, test and figure) and its pairs left out per factor.
//! - `effects`: per factor, pair of values, test and figure, the drives combined.
//!
//! - `effects_touched`: combined effects whose drives changed since they were combined.
//!
//! `refresh` takes a batch of stale drives and recomputes their rows from their visible
//! results, marking the combined effects they touched; `combine_touched` combines every
//! marked effect again from all its drives' rows. Combining reads every drive's unit of
//! an effect, so it runs once for many drive refreshes, not once per drive. The server
//! runs both in the background (`ssdbase serve`); `/effects` says what still waits.
//! A database whose `app_meta` has no `effects` mark of the current layout (the factor
//! list) marks every drive stale once, on start-up.

use super::sql::{from_json, group_columns, to_json, Param, RawMetric, METRIC_ROW_COLUMNS};
use super::StorageResult;
use bench::difference::{Figure, FigureValues};
use bench::effects::{combine, drive_effects, Effect, Setting, FACTORS};
use bench::TestKey;
use std::collections::{BTreeMap, BTreeSet};

/// One combined effect's identity: a factor changed from `a` to `b`, on one test's figure.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct EffectKey {
    pub factor: String,
    pub a: String,
    pub b: String,
    pub test: TestKey,
    pub figure: Figure,
}

/// What `/effects` reads: the combined effects (of one factor, or all), pairs left out
/// per factor, and how many drives' changes are not counted yet.
#[derive(Debug, Clone, Default)]
pub struct EffectsSnapshot {
    pub effects: Vec<(EffectKey, Effect)>,
    pub left_out: BTreeMap<String, i64>,
    pub stale_drives: i64,
    /// Combined effects whose drives changed, waiting to be combined again.
    pub touched: i64,
}

/// One drive behind an effect.
#[derive(Debug, Clone)]
pub struct EffectDrive {
    pub drive_sku: String,
    /// `Patriot WILDFIRE 120 GB`.
    pub label: String,
    pub effect: Effect,
}

/// The layout the stored effects were computed for: the factors, in order.
fn layout() -> String {
    format!("v1;{}", FACTORS.join(","))
}

const MARKED: &str = "SELECT value FROM app_meta WHERE key = 'effects'";
const SET_MARK: &str = "INSERT INTO app_meta (key, value) VALUES ('effects', $1) \
     ON CONFLICT (key) DO UPDATE SET value = excluded.value";
const MARK_STALE: &str = "INSERT INTO effects_stale (drive_sku, generation) VALUES ($1, 1) \
     ON CONFLICT (drive_sku) DO UPDATE SET generation = effects_stale.generation + 1";
const MARK_ALL: &str = "INSERT INTO effects_stale (drive_sku, generation) \
     SELECT DISTINCT drive_sku, 1 FROM results WHERE drive_sku IS NOT NULL \
     ON CONFLICT (drive_sku) DO UPDATE SET generation = effects_stale.generation + 1";
const STALE: &str = "SELECT drive_sku, generation FROM effects_stale ORDER BY drive_sku LIMIT $1";
const UNMARK: &str = "DELETE FROM effects_stale WHERE drive_sku = $1 AND generation = $2";
const STALE_COUNT: &str = "SELECT COUNT(*) FROM effects_stale";
const TOUCHED_COUNT: &str = "SELECT COUNT(*) FROM effects_touched";
const TOUCH: &str = "INSERT INTO effects_touched (factor, value_a, value_b, test, figure) \
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
const CLAIM_TOUCHED: &str = "DELETE FROM effects_touched RETURNING factor, value_a, value_b, test, figure";
const DRIVE_KEYS: &str =
    "SELECT factor, value_a, value_b, test, figure FROM effect_units WHERE drive_sku = $1";
const DELETE_UNITS: &str = "DELETE FROM effect_units WHERE drive_sku = $1";
const DELETE_LEFT_OUT: &str = "DELETE FROM effect_left_out WHERE drive_sku = $1";
const INSERT_UNIT: &str =
    "INSERT INTO effect_units (factor, value_a, value_b, test, figure, drive_sku, effect) \
     VALUES ($1, $2, $3, $4, $5, $6, $7)";
const INSERT_LEFT_OUT: &str = "INSERT INTO effect_left_out (drive_sku, factor, pairs) VALUES ($1, $2, $3)";
const UNITS_OF: &str = "SELECT drive_sku, effect FROM effect_units \
     WHERE factor = $1 AND value_a = $2 AND value_b = $3 AND test = $4 AND figure = $5 ORDER BY drive_sku";
/// [`UNITS_OF`] with each drive's name parts (one join, not the whole catalogue).
const DRIVES_OF: &str = "SELECT u.drive_sku, u.effect, d.vendor, d.model, d.capacity_gb \
     FROM effect_units u JOIN drives d ON d.id = u.drive_sku \
     WHERE u.factor = $1 AND u.value_a = $2 AND u.value_b = $3 AND u.test = $4 AND u.figure = $5 \
     ORDER BY u.drive_sku";
const UPSERT_EFFECT: &str = "INSERT INTO effects (factor, value_a, value_b, test, figure, effect) \
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (factor, value_a, value_b, test, figure) \
     DO UPDATE SET effect = excluded.effect";
const DELETE_EFFECT: &str = "DELETE FROM effects \
     WHERE factor = $1 AND value_a = $2 AND value_b = $3 AND test = $4 AND figure = $5";
const EFFECTS: &str = "SELECT factor, value_a, value_b, test, figure, effect FROM effects \
     ORDER BY factor, value_a, value_b, test, figure";
const EFFECTS_OF: &str = "SELECT factor, value_a, value_b, test, figure, effect FROM effects \
     WHERE factor = $1 ORDER BY factor, value_a, value_b, test, figure";
const LEFT_OUT: &str = "SELECT factor, CAST(SUM(pairs) AS BIGINT) FROM effect_left_out GROUP BY factor";

/// A drive's visible metric rows with the factors' values as text, after the columns a
/// [`RawMetric`] reads.
fn drive_metrics_sql() -> String {
    let factors: Vec<String> = FACTORS
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let column = bench::fields::field(name).expect("a factor is a field").column;
            format!("CAST(r.{column} AS TEXT) AS factor_{i}")
        })
        .collect();
    format!(
        "SELECT {METRIC_ROW_COLUMNS}, {}, {} FROM results r JOIN metrics m ON m.result_id = r.id \
         WHERE r.drive_sku = $1 AND r.hidden = FALSE",
        group_columns(),
        factors.join(", ")
    )
}

fn key_params(k: &EffectKey) -> [Param; 5] {
    [
        Param::Text(Some(k.factor.clone())),
        Param::Text(Some(k.a.clone())),
        Param::Text(Some(k.b.clone())),
        Param::Text(Some(to_json(&k.test))),
        Param::Text(Some(k.figure.id().to_string())),
    ]
}

fn key_of(factor: String, a: String, b: String, test: &str, figure: &str) -> StorageResult<EffectKey> {
    let figure = Figure::from_id(figure)
        .ok_or_else(|| super::StorageError::Corrupt(format!("effect figure {figure:?}")))?;
    Ok(EffectKey { factor, a, b, test: from_json(test)?, figure })
}

/// One metric row of a drive: its result's setting, its test, MB/s, IOPS and latency.
type SettingMetric = (Setting, TestKey, Option<f64>, Option<f64>, Option<f64>);

/// The settings of one drive and their values per test, from its metric rows.
fn settings_of(rows: Vec<SettingMetric>) -> Vec<(Setting, BTreeMap<TestKey, FigureValues>)> {
    let mut by: BTreeMap<Setting, BTreeMap<TestKey, FigureValues>> = BTreeMap::new();
    for (setting, key, mbps, iops, latency) in rows {
        let v = by.entry(setting).or_default().entry(key).or_default();
        v.mbps.extend(mbps);
        v.iops.extend(iops);
        v.latency_us.extend(latency);
    }
    for tests in by.values_mut() {
        for v in tests.values_mut() {
            for figure in [&mut v.mbps, &mut v.iops, &mut v.latency_us] {
                figure.sort_by(f64::total_cmp);
            }
        }
    }
    by.into_iter().collect()
}

/// The same functions for both backends: only binding and the advisory lock differ.
macro_rules! backend {
    ($name:ident, $conn:ty, $pool:ty, $lock:expr) => {
        pub mod $name {
            use super::*;
            use crate::$name::bind;
            use sqlx::Row;

            /// Marks drives whose results changed. Call inside the changing transaction.
            pub async fn mark_stale(conn: &mut $conn, drive_skus: &[&String]) -> StorageResult<()> {
                for sku in drive_skus {
                    sqlx::query(MARK_STALE).bind(*sku).execute(&mut *conn).await?;
                }
                Ok(())
            }

            /// Marks every drive stale when the stored effects are of another layout
            /// (or none): the next refreshes build them all.
            pub async fn mark_all_if_missing(pool: &$pool) -> StorageResult<()> {
                let marked: Option<String> = sqlx::query_scalar(MARKED).fetch_optional(pool).await?;
                if marked == Some(layout()) {
                    return Ok(());
                }
                let mut tx = pool.begin().await?;
                for table in ["effect_units", "effect_left_out", "effects", "effects_touched"] {
                    sqlx::query(&format!("DELETE FROM {table}")).execute(&mut *tx).await?;
                }
                sqlx::query(MARK_ALL).execute(&mut *tx).await?;
                sqlx::query(SET_MARK).bind(layout()).execute(&mut *tx).await?;
                tx.commit().await?;
                Ok(())
            }

            /// Recomputes up to `max_drives` stale drives' effects and marks the combined
            /// effects they touch ([`combine_touched`] combines them); returns how many
            /// drives it did (0: nothing was stale). Reads go to `reader`, writes to
            /// `writer` (the same pool on PostgreSQL).
            pub async fn refresh(reader: &$pool, writer: &$pool, max_drives: usize) -> StorageResult<usize> {
                let limit = i64::try_from(max_drives).unwrap_or(i64::MAX);
                let stale: Vec<(String, i64)> = sqlx::query_as(STALE).bind(limit).fetch_all(reader).await?;
                let sql = drive_metrics_sql();
                for (sku, generation) in &stale {
                    let mut touched: BTreeSet<EffectKey> = BTreeSet::new();
                    let rows = sqlx::query(&sql).bind(sku).fetch_all(reader).await?;
                    let mut metrics = Vec::with_capacity(rows.len());
                    for r in &rows {
                        let m = <RawMetric as sqlx::FromRow<_>>::from_row(r)?.decode()?;
                        let setting: Setting = (0..FACTORS.len())
                            .map(|i| r.try_get::<Option<String>, _>(format!("factor_{i}").as_str()))
                            .collect::<Result<_, _>>()?;
                        metrics.push((setting, m.key, m.mbps, m.iops, m.latency_us));
                    }
                    let found = drive_effects(&settings_of(metrics));
                    let mut tx = writer.begin().await?;
                    if let Some(lock) = $lock {
                        sqlx::query(lock).bind(format!("effects:{sku}")).execute(&mut *tx).await?;
                    }
                    for r in sqlx::query(DRIVE_KEYS).bind(sku).fetch_all(&mut *tx).await? {
                        let test: String = r.try_get(3)?;
                        let figure: String = r.try_get(4)?;
                        touched.insert(key_of(r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, &test, &figure)?);
                    }
                    sqlx::query(DELETE_UNITS).bind(sku).execute(&mut *tx).await?;
                    sqlx::query(DELETE_LEFT_OUT).bind(sku).execute(&mut *tx).await?;
                    for e in found.effects {
                        let key = EffectKey {
                            factor: e.factor.to_string(),
                            a: e.a,
                            b: e.b,
                            test: e.test,
                            figure: e.figure,
                        };
                        let mut params = key_params(&key).to_vec();
                        params.push(Param::Text(Some(sku.clone())));
                        params.push(Param::Text(Some(to_json(&e.effect))));
                        bind(sqlx::query(INSERT_UNIT), params).execute(&mut *tx).await?;
                        touched.insert(key);
                    }
                    for (factor, pairs) in found.left_out {
                        let pairs = i64::try_from(pairs).unwrap_or(i64::MAX);
                        sqlx::query(INSERT_LEFT_OUT)
                            .bind(sku)
                            .bind(factor)
                            .bind(pairs)
                            .execute(&mut *tx)
                            .await?;
                    }
                    sqlx::query(UNMARK).bind(sku).bind(generation).execute(&mut *tx).await?;
                    // What this drive changed waits for the next combination.
                    for key in &touched {
                        bind(sqlx::query(TOUCH), key_params(key).to_vec()).execute(&mut *tx).await?;
                    }
                    tx.commit().await?;
                }
                Ok(stale.len())
            }

            /// Combines again every effect whose drives changed since it was last
            /// combined; returns how many. One transaction that claims the marks first:
            /// a drive refreshed meanwhile marks its effects again, for the next time.
            pub async fn combine_touched(writer: &$pool) -> StorageResult<usize> {
                let mut tx = writer.begin().await?;
                let claimed = sqlx::query(CLAIM_TOUCHED).fetch_all(&mut *tx).await?;
                let mut keys = Vec::with_capacity(claimed.len());
                for r in &claimed {
                    let (test, figure): (String, String) = (r.try_get(3)?, r.try_get(4)?);
                    keys.push(key_of(r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, &test, &figure)?);
                }
                for key in &keys {
                    let params = key_params(key).to_vec();
                    let units = bind(sqlx::query(UNITS_OF), params.clone()).fetch_all(&mut *tx).await?;
                    let units = units
                        .iter()
                        .map(|r| from_json::<Effect>(r.try_get(1)?))
                        .collect::<StorageResult<Vec<Effect>>>()?;
                    match combine(&units) {
                        Some(effect) => {
                            let mut params = params;
                            params.push(Param::Text(Some(to_json(&effect))));
                            bind(sqlx::query(UPSERT_EFFECT), params).execute(&mut *tx).await?;
                        }
                        None => {
                            bind(sqlx::query(DELETE_EFFECT), params).execute(&mut *tx).await?;
                        }
                    }
                }
                tx.commit().await?;
                Ok(keys.len())
            }

            /// The combined effects (of `factor`, or every factor), pairs left out, and
            /// the drives not counted yet.
            pub async fn snapshot(pool: &$pool, factor: Option<&str>) -> StorageResult<EffectsSnapshot> {
                let rows = match factor {
                    Some(f) => sqlx::query(EFFECTS_OF).bind(f).fetch_all(pool).await?,
                    None => sqlx::query(EFFECTS).fetch_all(pool).await?,
                };
                let mut effects = Vec::with_capacity(rows.len());
                for r in &rows {
                    let (test, figure): (String, String) = (r.try_get(3)?, r.try_get(4)?);
                    let key = key_of(r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, &test, &figure)?;
                    effects.push((key, from_json(r.try_get(5)?)?));
                }
                let left_out = sqlx::query(LEFT_OUT)
                    .fetch_all(pool)
                    .await?
                    .iter()
                    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                    .collect::<StorageResult<_>>()?;
                let stale_drives: i64 = sqlx::query_scalar(STALE_COUNT).fetch_one(pool).await?;
                let touched: i64 = sqlx::query_scalar(TOUCHED_COUNT).fetch_one(pool).await?;
                Ok(EffectsSnapshot { effects, left_out, stale_drives, touched })
            }

            /// The drives behind one effect, each with its name and its own effect.
            pub async fn drives_of(pool: &$pool, key: &EffectKey) -> StorageResult<Vec<EffectDrive>> {
                bind(sqlx::query(DRIVES_OF), key_params(key).to_vec())
                    .fetch_all(pool)
                    .await?
                    .iter()
                    .map(|r| {
                        let (vendor, model, capacity): (String, String, i64) =
                            (r.try_get(2)?, r.try_get(3)?, r.try_get(4)?);
                        Ok(EffectDrive {
                            drive_sku: r.try_get(0)?,
                            label: format!("{vendor} {model} {capacity} GB"),
                            effect: from_json(r.try_get(1)?)?,
                        })
                    })
                    .collect()
            }
        }
    };
}

backend!(sqlite, sqlx::SqliteConnection, sqlx::SqlitePool, None::<&str>);
backend!(postgres, sqlx::PgConnection, sqlx::PgPool, Some("SELECT pg_advisory_xact_lock(hashtext($1))"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_are_numbered_for_their_parameters() {
        use crate::sql::assert_numbered;
        for (sql, n) in [
            (MARKED, 0),
            (SET_MARK, 1),
            (MARK_STALE, 1),
            (MARK_ALL, 0),
            (STALE, 1),
            (UNMARK, 2),
            (DRIVE_KEYS, 1),
            (DELETE_UNITS, 1),
            (DELETE_LEFT_OUT, 1),
            (INSERT_UNIT, 7),
            (INSERT_LEFT_OUT, 3),
            (UNITS_OF, 5),
            (DRIVES_OF, 5),
            (UPSERT_EFFECT, 6),
            (DELETE_EFFECT, 5),
            (TOUCH, 5),
            (CLAIM_TOUCHED, 0),
            (EFFECTS_OF, 1),
        ] {
            assert_numbered(sql, n);
        }
        assert_numbered(&drive_metrics_sql(), 1);
    }
}
