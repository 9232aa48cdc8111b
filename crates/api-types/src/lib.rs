//! The JSON of `/api/v1`, defined once: every answer, request body and error body the
//! server and the site exchange. The server builds and serialises these (and documents
//! them: feature `openapi`), the site decodes them, and `charts::compare` turns a
//! [`Comparison`] into the compare chart for both the site's canvas and the server's
//! SVG/PNG embeds. Results, tags, flags and summaries are `bench`'s own serde types.
//! Here: the drive and compare answers; `results` the results, submissions and edits;
//! `catalogue` proposals, decisions, history and merges; `runner` how `ssdbase bench` says it measured a result; `ocr` the screenshot jobs and what the recogniser read (the `ocr` crate returns
//! these types); `error` the error body.

mod catalogue;
mod error;
pub mod links;
mod ocr;
pub mod pages;
mod results;
mod runner;
mod sustained;
mod views;

pub use catalogue::{
    CatalogueChange, CatalogueHistory, ChangeAction, DecisionBody, DriveProposal, DuplicateGroup,
    DuplicateList, MergeBody, MergeResponse, Proposal, ProposalList, ProposalStatus,
};
pub use error::{ErrorBody, ErrorItem};
pub use ocr::{
    CellReading, JobStatus, Layout, OcrJob, Recognition, RecognitionJson, Rect, RowReading, Settings,
};
pub use results::{
    Correction, DeleteResponse, EditBody, ListResponse, LoadBehaviour, LoadCurveView, OtherDrive, Provenance,
    ResultView, SampledTest, SettingCorrection, SubmitBody, SubmitResponse, SubmittedResult, TestPercentiles,
    UploadView,
};
pub use runner::{ProbedFact, RunnerDownload, RunnerDownloads, RunnerJob, RunnerRecord};
pub use sustained::{CacheLeaderboard, CacheRow, DriveCurve, Pooled, SaturationRun, Sustained, SustainedRow};
pub use views::{DriveItemView, DriveListView, DrivePageView};

use bench::analysis::{Flag, RatedFigure, RatedVsMeasured, Summary};
use bench::difference::Difference;
use bench::{DataPattern, DriveSku, Observation, Platform, PlatformGroup, TestKey, Tool};
use serde::{Deserialize, Serialize};

// --- /drives/index and /leaderboard ---------------------------------------------------

/// One figure of one drive: the median of one test in one pool, with n.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PoolFigure {
    /// The test (`TestKey::id`, e.g. `cdm-diskspd SEQ 1MiB Q8T1 read`).
    pub test: String,
    /// The platform group the results were measured on.
    pub platform: PlatformGroup,
    pub data_pattern: Option<DataPattern>,
    /// MB/s.
    pub median_mbps: f64,
    /// Results it stands on.
    pub n: usize,
    pub result_ids: Vec<i64>,
}

/// A drive in the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IndexRow {
    pub id: String,
    pub url: String,
    pub vendor: String,
    pub model: String,
    pub capacity_gb: u32,
    /// False for a community drive, not reviewed yet.
    pub reviewed: bool,
    /// The drive's own interface (`sata-6`, `pcie-3-x4`, ...), when the catalogue knows it.
    pub interface: Option<String>,
    pub controller: Option<String>,
    pub nand_vendor: Option<String>,
    /// Visible results.
    pub result_count: i64,
    /// Its key figures, each of the test it was measured with most often: sequential
    /// read and write, random 4 KiB Q1T1 read and write. Different drives' key figures may
    /// be of different tests: compare them with the leaderboard, which holds one test.
    pub key: KeyFigures,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeyFigures {
    pub seq_read: Option<PoolFigure>,
    pub seq_write: Option<PoolFigure>,
    pub rnd4k_q1_read: Option<PoolFigure>,
    pub rnd4k_q1_write: Option<PoolFigure>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DriveIndex {
    /// The page: at most `limit` drives from `offset`, in the order asked.
    pub drives: Vec<IndexRow>,
    /// Drives that pass the filters, on every page.
    pub total: usize,
    pub offset: usize,
    pub limit: usize,
}

/// A leaderboard's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LeaderboardRow {
    pub rank: usize,
    pub drive_id: String,
    pub url: String,
    pub name: String,
    pub reviewed: bool,
    /// `RAID 0 ×2` when the line measured several of the drive in an array (ranked
    /// apart, in `arrays`); absent for one drive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array: Option<String>,
    #[serde(flatten)]
    pub figure: PoolFigure,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Leaderboard {
    pub test: String,
    /// The fewest results a line needs (`min_results`).
    pub min_results: usize,
    /// Single drives, ranked.
    pub rows: Vec<LeaderboardRow>,
    /// Arrays of the drives (RAID sets), ranked apart: never among single drives.
    pub arrays: Vec<LeaderboardRow>,
    /// Pools that matched but had fewer results than `min_results`.
    pub left_out: usize,
}

/// What the drives index's and leaderboards' filter fields suggest
/// (`/drives/suggestions`): every catalogue drive's vendors, interfaces (link ids and
/// their kinds), controller models and NAND vendors, each sorted and once.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FilterSuggestions {
    pub vendor: Vec<String>,
    pub interface: Vec<String>,
    pub controller: Vec<String>,
    pub nand: Vec<String>,
}

/// Which drives the drives index, the leaderboards and their tests list keep: the filters
/// they share, as query parameters. Text compares without case (both sides lower-cased
/// by `str::to_lowercase`); `interface` is a link id (`pcie-3-x4`) or its kind alone
/// (`sata`, `pcie`, `usb`). The store compares them in SQL (`store::sql::drive_filter_sql`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
pub struct DriveFilter {
    /// Only this vendor (any case)
    pub vendor: Option<String>,
    /// A link id (`sata-6`, `pcie-3-x4`) or a kind (`sata`, `pcie`, `usb`)
    pub interface: Option<String>,
    /// Only this controller model (any case)
    pub controller: Option<String>,
    /// Only this NAND vendor (any case)
    pub nand: Option<String>,
    /// Only reviewed (true) or community (false) drives
    pub reviewed: Option<bool>,
}

impl DriveFilter {
    /// Whether it keeps every drive.
    pub fn is_empty(&self) -> bool {
        *self == DriveFilter::default()
    }
}

// --- /drives -----------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DriveList {
    pub drives: Vec<DriveListItem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DriveListItem {
    #[serde(flatten)]
    pub drive: DriveSku,
    pub url: String,
    /// Visible results of this drive.
    pub result_count: i64,
}

/// `GET /drives/identify`: which drive a text names (a model string, a CrystalDiskMark
/// comment), found as a submission naming it would find it. Nothing is stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DriveIdentification {
    pub query: String,
    /// How a submission naming it would be identified: `name`, `alias` or `loose` (a
    /// drive that exists), `created` (a new community drive), `ambiguous`, `unknown`.
    pub identified_by: bench::DriveMatch,
    /// The drive: one that exists, or the community drive a submission would create.
    pub drive: Option<DriveSku>,
    /// Whether `drive` is in the database already.
    pub exists: bool,
    /// The drives an ambiguous text matches.
    pub candidates: Vec<String>,
}

/// Median, MAD and count of each figure of one test over a set of results, and the
/// results they come from.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Aggregates {
    #[serde(default)]
    pub mbps: Option<Summary>,
    #[serde(default)]
    pub iops: Option<Summary>,
    #[serde(default)]
    pub latency_us: Option<Summary>,
    #[serde(default)]
    pub result_ids: Vec<i64>,
}

/// The aggregates of one test over the results of one platform group and data pattern:
/// the finest pool in which numbers are comparable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GroupCell {
    pub platform: PlatformGroup,
    pub platform_label: String,
    /// `random`, `zero-fill`, ...; absent when the tool did not say.
    #[serde(default)]
    pub data_pattern: Option<DataPattern>,
    #[serde(flatten)]
    pub aggregates: Aggregates,
    /// Against the test's reference group (the one with the most results) in the
    /// headline figure: ratio, 95 % interval, verdict. Absent for the reference itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_reference: Option<Difference>,
    /// Whether this is the test's reference group (when the test has several).
    #[serde(default)]
    pub reference: bool,
}

impl GroupCell {
    /// `ICH10R · random`.
    pub fn label(&self) -> String {
        pool_label(&self.platform_label, self.data_pattern)
    }
}

/// How a pool (platform group and data pattern) reads: `ICH10R · random`.
pub fn pool_label(platform_label: &str, pattern: Option<DataPattern>) -> String {
    format!("{platform_label} · {}", pattern_label(pattern))
}

/// How a data pattern reads in labels.
pub fn pattern_label(p: Option<DataPattern>) -> &'static str {
    match p {
        Some(DataPattern::Random) => "random",
        Some(DataPattern::ZeroFill) => "0-fill",
        Some(DataPattern::OneFill) => "1-fill",
        None => "pattern unknown",
    }
}

/// One comparable test with its aggregates, one per platform group and data pattern.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TestSummary {
    pub key: TestKey,
    pub name: String,
    pub groups: Vec<GroupCell>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DriveResult {
    pub id: i64,
    pub url: String,
    pub platform_label: String,
    pub tool: Tool,
    pub tool_version: Option<String>,
    pub data_pattern: Option<DataPattern>,
    pub test_size_bytes: Option<u64>,
    /// The drive's firmware as tagged on this result.
    #[serde(default)]
    pub firmware: Option<String>,
    /// When it was submitted (unix seconds).
    #[serde(default)]
    pub submitted_at: i64,
    pub platform: Platform,
    pub source: Option<String>,
    pub flags: Vec<Flag>,
    pub rated_vs_measured: Vec<RatedVsMeasured>,
}

/// The results measured on one platform group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlatformResults {
    pub platform: PlatformGroup,
    pub platform_label: String,
    pub result_ids: Vec<i64>,
}

/// One firmware version a drive's results were measured with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FirmwareSeen {
    /// As tagged; `None` for results without a firmware tag.
    pub firmware: Option<String>,
    pub result_ids: Vec<i64>,
    /// When the first and the latest of those results were submitted (unix seconds).
    pub first_submitted: i64,
    pub last_submitted: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DrivePage {
    pub drive: DriveSku,
    /// How many visible results the drive has.
    pub result_count: usize,
    /// Every visible result, oldest first (none when asked with `results=false`).
    pub results: Vec<DriveResult>,
    /// The same results grouped by platform group, in group order (none when asked with
    /// `results=false`).
    pub platforms: Vec<PlatformResults>,
    /// Firmware history: every firmware the results were measured with, in order of
    /// first submission.
    #[serde(default)]
    pub firmware: Vec<FirmwareSeen>,
    /// Per comparable test, per platform group and data pattern: median, MAD, count.
    pub tests: Vec<TestSummary>,
}

/// `GET /observations`: what the sources report beyond tool results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ObservationList {
    pub observations: Vec<Observation>,
}

// --- /leaderboard ------------------------------------------------------------------------

/// `GET /leaderboard/tests`: the tests a leaderboard can rank, most ranked lines first.
/// (The drives index and the leaderboards themselves are read by the site as the HTML the
/// server renders, so their JSON types stay with the server.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LeaderboardTests {
    pub tests: Vec<LeaderboardTest>,
}

/// One test (as `TestKey::id` names it, the leaderboard's `test=`) and how much of it there is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LeaderboardTest {
    /// E.g. `cdm-diskspd SEQ 1MiB Q8T1 read`.
    pub test: String,
    /// Drives with at least one result in it.
    pub drives: usize,
    /// Lines (drive, platform group and data pattern) with at least 3 results: what its
    /// leaderboard shows by default.
    pub ranked: usize,
    /// Results measured in it.
    pub results: usize,
}

// --- /compare ----------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ComparedDrive {
    pub id: String,
    pub url: String,
    pub vendor: String,
    pub model: String,
    pub capacity_gb: u32,
}

impl ComparedDrive {
    /// `Crucial RealSSD C300 128 GB`.
    pub fn label(&self) -> String {
        format!("{} {} {} GB", self.vendor, self.model, self.capacity_gb)
    }
}

/// One pool of a comparison: the results of one compared drive measured on one platform
/// group with one data pattern, the finest set whose numbers are put together. Listed once
/// per comparison; test cells refer to it by index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ComparedPool {
    /// Catalogue id of the drive.
    pub drive: String,
    pub platform: PlatformGroup,
    pub platform_label: String,
    /// `random`, `zero-fill`, ...; absent when the tool did not say.
    #[serde(default)]
    pub data_pattern: Option<DataPattern>,
    /// How many results of the pool take part (the union over its tests).
    pub results: usize,
    /// The newest [`COMPARE_RESULT_IDS`] of them, ascending: a popular drive's pools hold
    /// thousands, which a page links a few of (`GET /results` lists them all).
    pub result_ids: Vec<i64>,
    /// True when the comparison was asked with `merge=drive`: the pool is every result of
    /// the drive, whatever its platform and data pattern (an author's choice; such numbers
    /// mix what SSDBase otherwise keeps apart).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub merged: bool,
}

/// Result ids a comparison lists per pool and per cell at most, the newest: every id of
/// three popular drives' cells was 1.5 MB of JSON at 1,000,000 results (and ten times
/// that at ten million), while a page links a few; the counts say how many there are.
pub const COMPARE_RESULT_IDS: usize = 40;

/// How a merged pool reads in labels.
pub const MERGED_POOL_LABEL: &str = "all platforms and data patterns, merged";

impl ComparedPool {
    /// `ICH10R · random`, or for a merged pool its label ([`MERGED_POOL_LABEL`], after
    /// its array when the pool is one: `RAID 0 ×2 · all platforms…`).
    pub fn label(&self) -> String {
        if self.merged {
            self.platform_label.clone()
        } else {
            pool_label(&self.platform_label, self.data_pattern)
        }
    }
}

/// One test's aggregates over one pool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PoolCell {
    /// Index into the comparison's `pools`.
    pub pool: usize,
    #[serde(default)]
    pub mbps: Option<Summary>,
    #[serde(default)]
    pub iops: Option<Summary>,
    #[serde(default)]
    pub latency_us: Option<Summary>,
    /// How many results are behind these aggregates when they are not all of the pool's
    /// (some ran without this test); absent when they are exactly the pool's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results: Option<usize>,
    /// The newest [`COMPARE_RESULT_IDS`] of those results, when `results` is present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_ids: Option<Vec<i64>>,
    /// This pool against the test's reference pool (the first drive's pool with the
    /// most results in it); absent on the reference itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_reference: Option<CellDifference>,
}

/// A pool against the reference pool of its test in the cell's headline figure (MB/s,
/// else IOPS, else latency; the others absent): the ratio of their typical values with
/// its 95 % interval and verdict (`bench::difference`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CellDifference {
    /// Index into the comparison's `pools` of the reference.
    pub reference_pool: usize,
    #[serde(default)]
    pub mbps: Option<Difference>,
    #[serde(default)]
    pub iops: Option<Difference>,
    #[serde(default)]
    pub latency_us: Option<Difference>,
}

impl CellDifference {
    /// The difference in one figure.
    pub fn of(&self, figure: Figure) -> Option<Difference> {
        match figure {
            Figure::Mbps => self.mbps,
            Figure::Iops => self.iops,
            Figure::Latency => self.latency_us,
        }
    }
}

impl PoolCell {
    /// The summary of one figure.
    pub fn of(&self, figure: Figure) -> Option<Summary> {
        match figure {
            Figure::Mbps => self.mbps,
            Figure::Iops => self.iops,
            Figure::Latency => self.latency_us,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DriveCell {
    pub drive: String,
    /// True when this drive has no result with this test (under the filters).
    pub missing: bool,
    /// One entry per pool of the drive that has this test, in pool order.
    pub groups: Vec<PoolCell>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ComparedTest {
    pub key: TestKey,
    pub name: String,
    /// One entry per requested drive, in the order requested.
    pub drives: Vec<DriveCell>,
}

/// A comparison: the drives, every pool they were measured in (listed once: a popular
/// drive's result ids would otherwise repeat in every test), and per comparable test the
/// aggregates per drive and pool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Comparison {
    pub drives: Vec<ComparedDrive>,
    /// Per drive in the order requested, its pools in platform and pattern order.
    pub pools: Vec<ComparedPool>,
    pub tests: Vec<ComparedTest>,
}

impl Comparison {
    /// The pool a cell summarises.
    pub fn pool_of(&self, cell: &PoolCell) -> Option<&ComparedPool> {
        self.pools.get(cell.pool)
    }

    /// How many results are behind a cell: its own count, or its pool's.
    pub fn results(&self, cell: &PoolCell) -> usize {
        cell.results.unwrap_or_else(|| self.pool_of(cell).map_or(0, |p| p.results))
    }

    /// The newest results behind a cell (at most [`COMPARE_RESULT_IDS`]): its own list,
    /// or its pool's.
    pub fn result_ids<'a>(&'a self, cell: &'a PoolCell) -> &'a [i64] {
        match &cell.result_ids {
            Some(ids) => ids,
            None => self.pool_of(cell).map_or(&[], |p| &p.result_ids),
        }
    }
}

/// Which figure of a test (MB/s, IOPS or latency): defined with the differences it
/// is taken on.
pub use bench::difference::Figure;

// --- rated vs measured tables --------------------------------------------------------------

/// A rated-vs-measured table: per rated figure and drive (and, when split, per platform
/// group and data pattern) the maker's rating beside the median of the results that
/// measured it. The drive page's charts draw the same rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RatedTable {
    /// Which results count and which test is matched to which rating, in words.
    pub rule: String,
    /// Per rated figure (sequential read, write, 4K read, 4K write), per drive in order.
    pub rows: Vec<RatedTableRow>,
}

/// One rated figure of one drive: the rating (absent: not rated) and the measurement
/// (absent: no measurement). Never a zero in place of a missing number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RatedTableRow {
    /// Catalogue id of the drive.
    pub drive: String,
    /// `Crucial RealSSD C300 64 GB`.
    pub drive_label: String,
    pub capacity_gb: u32,
    pub figure: RatedFigure,
    /// `seq-read`, `seq-write`, `rnd4k-read` or `rnd4k-write` (as in the chart embeds).
    pub figure_id: String,
    /// `Sequential write`.
    pub figure_name: String,
    /// `MB/s` or `IOPS`.
    pub unit: String,
    /// The platform group and data pattern the measurement pools, when the table is split
    /// by them (compare); absent when every single-drive result of the drive pools.
    #[serde(default)]
    pub pool: Option<String>,
    /// The maker's rating; absent when the catalogue has none (not rated).
    #[serde(default)]
    pub rated: Option<f64>,
    /// Median, MAD and count of the matched measurements; absent when none (no measurement).
    #[serde(default)]
    pub measured: Option<Summary>,
    /// measured median / rated − 1, in percent.
    #[serde(default)]
    pub gap_percent: Option<f64>,
    /// What may explain a gap, each with how many of the `n` results it applies to:
    /// `interface ceiling`, `cache-inflated`, `far above rated`, `0-fill data`.
    #[serde(default)]
    pub flags: Vec<Tally>,
    /// The platform groups the results were measured on, with their counts.
    #[serde(default)]
    pub platforms: Vec<Tally>,
    /// The tests matched to the rating (tool family and test), with their counts.
    #[serde(default)]
    pub tests: Vec<Tally>,
    /// The results behind the measurement, ascending.
    #[serde(default)]
    pub result_ids: Vec<i64>,
}

impl RatedTableRow {
    /// `3 of 5` style counts: `interface ceiling 3/5`.
    pub fn flags_text(&self) -> String {
        let n = self.measured.map_or(0, |m| m.count);
        self.flags.iter().map(|t| format!("{} {}/{n}", t.name, t.count)).collect::<Vec<_>>().join(", ")
    }
}

/// A name and how many results it applies to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Tally {
    pub name: String,
    pub count: usize,
}

/// Joins tallies as `ICH10R ×3; SB850 ×2`.
pub fn tallies_text(t: &[Tally]) -> String {
    t.iter().map(|t| format!("{} ×{}", t.name, t.count)).collect::<Vec<_>>().join("; ")
}

// --- factor effects ---------------------------------------------------------------------

/// `GET /effects`: per factor (a tag field that can change while the drive stays the
/// same), the effect of one value against another on each test, measured within drives
/// and combined across them (`bench::effects`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Effects {
    /// How effects are found and combined, in words.
    pub method: String,
    /// Drives whose latest results are not counted yet (they are being recomputed).
    pub pending_drives: u64,
    /// Effects whose drives changed, not combined again yet.
    pub pending_effects: u64,
    pub factors: Vec<FactorEffects>,
}

/// One factor's effects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FactorEffects {
    /// The field's name, e.g. `data_pattern`.
    pub factor: String,
    /// `Data pattern`.
    pub label: String,
    /// Pairs of one drive's settings that differ in this factor and at least one other:
    /// they do not pair, since either could be the cause.
    pub left_out: u64,
    pub effects: Vec<FactorEffect>,
}

/// The effect of changing a factor from `a` to `b` on one test: `ratio` is how many times
/// the result with `b` is the result with `a`; its `units` and `weighed` count drives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FactorEffect {
    pub a: String,
    pub b: String,
    pub test: TestKey,
    /// `cdm-native RND 4KiB Q1T1 write`: the id `test=` takes.
    pub test_id: String,
    pub figure: bench::difference::Figure,
    #[serde(flatten)]
    pub effect: bench::effects::Effect,
    /// The drives behind it, each with its own effect.
    pub drives_url: String,
}

/// `GET /effects/drives`: the drives behind one effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EffectDrives {
    pub factor: String,
    pub label: String,
    #[serde(flatten)]
    pub combined: FactorEffect,
    pub drives: Vec<EffectDrive>,
}

/// One drive's effect: its pairs of settings combined (`units` counts the pairs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EffectDrive {
    /// Catalogue id.
    pub drive: String,
    /// `Patriot WILDFIRE 120 GB`.
    pub drive_label: String,
    #[serde(flatten)]
    pub effect: bench::effects::Effect,
}

// --- firmware over time -------------------------------------------------------------------

/// `GET /drives/{id}/firmware`: the drive's firmware versions in numbered order and, per
/// test and pool measured with two or more of them, each version's median and the steps
/// between consecutive versions (`bench::firmware`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FirmwareHistory {
    pub drive: String,
    /// Every version the drive's results were tagged with, in numbered order.
    pub versions: Vec<String>,
    /// How a step is called a change, in words.
    pub method: String,
    pub series: Vec<FirmwareSeries>,
}

/// One test in one pool across firmware versions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FirmwareSeries {
    pub test: TestKey,
    pub test_id: String,
    pub platform: PlatformGroup,
    pub platform_label: String,
    #[serde(default)]
    pub data_pattern: Option<DataPattern>,
    pub figure: bench::difference::Figure,
    /// Per entry of `versions`: the median and n there, absent when not measured.
    pub points: Vec<Option<FirmwarePoint>>,
    /// Consecutive measured versions, the later against the earlier.
    pub steps: Vec<FirmwareStep>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FirmwarePoint {
    pub median: f64,
    pub n: usize,
}

/// `to` against `from`: the ratio with its 95 % interval and verdict; `change` when it is
/// beyond the noise (clear).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FirmwareStep {
    pub from: String,
    pub to: String,
    pub difference: Difference,
    pub change: bool,
}

// --- why a result is different ----------------------------------------------------------------

/// `GET /results/{id}/standing`: where a result stands in its drive's pool, test by test,
/// the fields in which it differs from its drive's usual values, and the measured effect
/// of each (from `/effects`) where there is one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResultStanding {
    pub result: i64,
    /// Its catalogue drive; absent for a result without one (it stands in no pool).
    pub drive: Option<String>,
    /// `ICH10R · IMSM · random`: the pool (the drive's results on the same platform group
    /// and data pattern) it is set against.
    pub pool_label: String,
    pub tests: Vec<TestStandingView>,
    pub unusual: Vec<UnusualField>,
    /// Whether a clear or likely effect of one of the unusual fields was measured on one
    /// of its tests: otherwise nothing measured explains a difference.
    pub explained: bool,
}

/// One test of a result against its pool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TestStandingView {
    pub test_id: String,
    pub figure: bench::difference::Figure,
    pub value: f64,
    pub median: f64,
    /// Results in the pool, this one included.
    pub n: usize,
    /// Share of the pool's values below this one (ties count half), in percent.
    pub percentile: f64,
}

/// A field in which the result differs from its drive's most common value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UnusualField {
    pub field: String,
    pub label: String,
    pub value: String,
    pub usual: String,
    /// How many of the drive's results that know the field have the usual value.
    pub usual_count: usize,
    pub known: usize,
    /// The measured effect of `usual` → `value` on each of the result's tests that has one.
    pub effects: Vec<StandingEffect>,
}

/// A factor effect bearing on one of the result's tests: `ratio` is this result's value
/// against the usual one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StandingEffect {
    pub test_id: String,
    #[serde(flatten)]
    pub effect: bench::effects::Effect,
    pub drives_url: String,
}
