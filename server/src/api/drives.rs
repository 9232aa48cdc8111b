//! `GET /api/v1/drives` (the catalogue) and `GET /api/v1/drives/{id}`: a drive's specs,
//! its results with their platforms, per comparable test the median, MAD and count, and each
//! result's rated-vs-measured table; `GET /api/v1/drives/{id}/rated.svg|png`: the
//! drive page's rated-vs-measured chart of one figure, and `.../distribution.svg|png` its
//! distribution chart of one test, for embedding.

use super::embed::{self, ChartStyle, ChartTheme, ChartWidth};
use super::extract::{Bounded, NoQuery, PathParam, TypedQuery};
use super::state::AppState;
use crate::aggregate;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::storage::{ResultFigures, StoredResult};
use api_types::links::api_drive as drive_url;
use api_types::links::api_result as result_url;
use api_types::{
    DriveList, DriveListItem, DrivePage, DriveResult, FirmwareHistory, FirmwarePoint, FirmwareSeen,
    FirmwareSeries, FirmwareStep, PlatformResults,
};
use axum::extract::State;
use axum::response::Response;
use axum::Json;
use bench::analysis;
use bench::difference::{Figure, FigureValues};
use bench::PlatformGroup;
use bench::{DataPattern, TestKey};
use std::collections::BTreeMap;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(search))
        .routes(routes!(identify))
        .routes(routes!(get_one))
        .routes(routes!(firmware))
        .routes(routes!(rated_svg))
        .routes(routes!(rated_png))
        .routes(routes!(distribution_svg))
        .routes(routes!(distribution_png))
}

/// The drive catalogue
///
/// Every catalogue drive with its specs and how many visible results it has.
#[utoipa::path(
    get,
    path = "/drives",
    operation_id = "list_drives",
    tag = "drives",
    responses((status = 200, description = "The catalogue", body = DriveList))
)]
async fn list(State(state): State<AppState>) -> ApiResult<Json<DriveList>> {
    let drives = state.storage.list_drives().await?.into_iter().map(DriveListItem::from).collect();
    Ok(Json(DriveList { drives }))
}

/// Most drives a search answers.
pub const SEARCH_LIMIT_MAX: u64 = 50;
type SearchLimit = Bounded<1, SEARCH_LIMIT_MAX>;

/// The drive search's query parameters.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct SearchQuery {
    /// What the person typed: words of a vendor, model line, short name, part number,
    /// alias or controller, in any case, spacing or punctuation, with up to one typo a
    /// word (`C300`, `970 evo`, `CT 1000 MX500`, `SF-2281`, `plextr m2s`)
    #[param(min_length = 1, max_length = 100)]
    q: String,
    /// How many drives at most (default 10)
    #[param(inline)]
    limit: Option<SearchLimit>,
}

/// Drive search as you type
///
/// Drives, reviewed and community, that hold every word of `q` in their names: vendor
/// (under any of its names: "Western Digital", "WDC", "バッファロー"), model line and its
/// short names ("C300" for the RealSSD C300), part number and aliases (also compact, so
/// "CT 1000 MX500" finds CT1000MX500SSD1), capacity and controller ("SF-2281" lists the
/// drives that carry it). A word of three characters or more matches anywhere in a name,
/// a shorter one at a word's start; when nothing matches, a word of letters that begins
/// no drive's word is read as one typo of one that does. The drive whose whole model line
/// `q` names first, then reviewed drives, then those with more results, each with its
/// visible result count.
#[utoipa::path(
    get,
    path = "/drives/search",
    operation_id = "search_drives",
    tag = "drives",
    params(SearchQuery),
    responses(
        (status = 200, description = "The drives found (none is an empty list)", body = DriveList),
        (status = 400, description = "`q` missing, empty or longer than 100 characters; `limit` out of range; another parameter", body = ErrorBody),
    )
)]
async fn search(
    State(state): State<AppState>,
    TypedQuery(SearchQuery { q: query, limit }): TypedQuery<SearchQuery>,
) -> ApiResult<Json<DriveList>> {
    let bad = |detail: String, at: &str| ApiError::bad_request(detail, Some(at.into()));
    let limit = limit.map_or(10, |l| l.0 as i64);
    let query = query.as_str();
    if query.is_empty() {
        return Err(bad("q is empty".into(), "q"));
    }
    if query.chars().count() > 100 {
        return Err(bad("q is longer than 100 characters".into(), "q"));
    }
    // The text index (`storage::search`), or for words of one or two characters, which it
    // cannot answer ("p2"), the drives whose keys start with the query; nothing searchable
    // in it (punctuation, symbols): nothing found.
    let found = match bench::identity::search_query(query) {
        Some(q) => crate::storage::search::find(state.storage.as_ref(), &q, limit as usize).await?,
        None => Some(Vec::new()),
    };
    let rows = match found {
        Some(rows) => rows,
        None => {
            let mut rows = Vec::new();
            for (from, to) in bench::identity::search_ranges(query) {
                rows.extend(state.storage.search_drives(&from, &to, limit).await?);
            }
            let mut seen = std::collections::HashSet::new();
            rows.retain(|d| seen.insert(d.drive.id.clone()));
            rows.sort_by_key(|d| !d.drive.reviewed);
            rows
        }
    };
    let drives = rows.into_iter().take(limit as usize).map(DriveListItem::from).collect();
    Ok(Json(DriveList { drives }))
}

/// Which drive a text names
///
/// `q`: a model string as an operating system reports it, a part number, or a drive's
/// name, identified exactly as a submission with `{"drive": {"model": q}}` would be: the
/// drive it lands on and how, the community drive it would create, or the candidates of
/// an ambiguous text.
///
/// `text` (instead of `q`, up to four): the texts of an upload that may name its drive,
/// in order (a CrystalDiskMark comment such as "Crucial P2 2TB @ PCIe 3.0 x4", a tool's
/// target). The answer is for the first that names a drive: one SSDBase has, several it
/// cannot choose between, or a new one when the text reads as a drive's name (a vendor
/// or a capacity beside a model). None does: `unknown`.
///
/// Stores nothing.
#[utoipa::path(
    get,
    path = "/drives/identify",
    operation_id = "identify_drive",
    tag = "drives",
    params(IdentifyParams),
    responses(
        (status = 200, description = "What the text names", body = api_types::DriveIdentification),
        (status = 400, description = "Neither `q` nor `text`, both, `q` twice, more than four `text`s, `capacity_gb` out of range or without `text`, or another parameter", body = ErrorBody),
        (status = 422, description = "A text that cannot name a drive: too long, control characters, only punctuation", body = ErrorBody),
    )
)]
async fn identify(
    State(state): State<AppState>,
    TypedQuery(params): TypedQuery<IdentifyParams>,
) -> ApiResult<Json<api_types::DriveIdentification>> {
    Ok(Json(identify_of(&state, params).await?))
}

/// What `GET /drives/identify` is asked: one text, or an upload's texts.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct IdentifyParams {
    /// The text naming a drive
    #[param(min_length = 1, max_length = 100)]
    q: Option<String>,
    /// Instead of q: an upload's texts that may name its drive, in order
    #[param(max_items = 4)]
    #[serde(default)]
    text: Vec<String>,
    /// With text: the capacity in GB the upload shows (a whole-drive volume), for a text
    /// that names a drive without one ("Crucial MX500")
    #[param(minimum = 1, maximum = 1000000)]
    capacity_gb: Option<u32>,
}

/// What the text (`q`) or the upload's texts (`text`) name.
pub(crate) async fn identify_of(
    state: &AppState,
    IdentifyParams { q: query, text: texts, capacity_gb }: IdentifyParams,
) -> ApiResult<api_types::DriveIdentification> {
    if texts.len() > MAX_UPLOAD_TEXTS {
        return Err(ApiError::bad_request(format!("at most {MAX_UPLOAD_TEXTS} texts"), Some("text".into())));
    }
    if capacity_gb.is_some_and(|gb| !(1..=1_000_000).contains(&gb)) {
        return Err(ApiError::bad_request("capacity_gb is 1 to 1000000", Some("capacity_gb".into())));
    }
    if capacity_gb.is_some() && texts.is_empty() {
        return Err(ApiError::bad_request("capacity_gb goes with text", Some("capacity_gb".into())));
    }
    let mut catalogue = crate::ingest::Catalogue::stored(state.storage.as_ref());
    let found = match (query, texts.is_empty()) {
        (Some(_), false) => {
            return Err(ApiError::bad_request("give q or text, not both", Some("text".into())))
        }
        (Some(q), true) if !q.is_empty() => identification(&mut catalogue, q, "q").await?,
        (None, false) => named_in_upload(&mut catalogue, texts, capacity_gb).await?,
        _ => {
            return Err(ApiError::bad_request(
                "q, the text naming a drive, is missing or empty",
                Some("q".into()),
            ))
        }
    };
    Ok(found)
}

/// The first of an upload's texts that names a drive (as a submission without a drive
/// tag would find it), or `unknown`.
async fn named_in_upload(
    catalogue: &mut crate::ingest::Catalogue<'_>,
    texts: Vec<String>,
    capacity_gb: Option<u32>,
) -> ApiResult<api_types::DriveIdentification> {
    let found = crate::ingest::named_in_upload(catalogue, &texts, capacity_gb).await?;
    Ok(match found {
        Some((text, found)) => identification_of(text, found),
        None => api_types::DriveIdentification {
            query: String::new(),
            identified_by: bench::DriveMatch::Unknown,
            drive: None,
            exists: false,
            candidates: Vec::new(),
        },
    })
}

/// The most texts of an upload `identify` looks at.
const MAX_UPLOAD_TEXTS: usize = 4;

/// What `text` names, as a submission naming it would find it; a junk text is a 422
/// pointing at `param`.
async fn identification(
    catalogue: &mut crate::ingest::Catalogue<'_>,
    text: String,
    param: &str,
) -> ApiResult<api_types::DriveIdentification> {
    let tag = bench::DriveTag { model: Some(text.clone()), ..bench::DriveTag::default() };
    let found = catalogue.identify_proposed(&tag).await.map_err(|refused| match refused.into_item() {
        Ok(mut item) => {
            item.pointer = Some(param.into());
            ApiError::Unprocessable(vec![item])
        }
        Err(e) => ApiError::Storage(e),
    })?;
    Ok(identification_of(text, found))
}

/// The answer for `text`, which names what was `found`.
fn identification_of(text: String, found: crate::ingest::Found) -> api_types::DriveIdentification {
    use crate::ingest::Found;
    use bench::DriveMatch;
    let (identified_by, drive, exists, candidates) = match found {
        Found::Drive(d, how) => (how, Some(d), true, Vec::new()),
        Found::New(d) => (DriveMatch::Created, Some(d), false, Vec::new()),
        Found::Ambiguous(ids) => (DriveMatch::Ambiguous, None, false, ids),
        Found::Unknown => (DriveMatch::Unknown, None, false, Vec::new()),
    };
    api_types::DriveIdentification { query: text, identified_by, drive, exists, candidates }
}

/// A drive's page
///
/// Its specs, its result count, its visible results with platform, flags and
/// rated-vs-measured, the results grouped by platform, and per comparable test the
/// median, MAD and count per platform group and data pattern (the sources' observations
/// are at `/drives/{id}/observations`). With `results=false` the results and their
/// grouping are left out (the count stays): what a page that lists them elsewhere asks.
#[utoipa::path(
    get,
    path = "/drives/{id}",
    operation_id = "get_drive",
    tag = "drives",
    params(("id" = String, Path, description = "Catalogue id, e.g. `crucial-realssd-c300-64gb`"), DriveQuery),
    responses(
        (status = 200, description = "The drive's page", body = DrivePage),
        (status = 400, description = "An unknown parameter or a bad value", body = ErrorBody),
        (status = 404, description = "No such drive in the catalogue", body = ErrorBody),
    )
)]
async fn get_one(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(DriveQuery { results: with_results }): TypedQuery<DriveQuery>,
) -> ApiResult<Json<DrivePage>> {
    let drive = catalogue_drive(&state, &id).await?;
    // Burst figures: a sweep is one curve (under "Burst and sustained"), not a test per
    // load, here as in the per-test table; and its points are not decoded per request.
    let results = state.storage.results_for_drives(std::slice::from_ref(&id), ResultFigures::Burst).await?;
    let tests = aggregate::by_test(&results);
    let mut platforms: BTreeMap<PlatformGroup, Vec<i64>> = BTreeMap::new();
    for r in &results {
        platforms.entry(PlatformGroup::of(&r.tags)).or_default().push(r.id);
    }
    let platforms = platforms
        .into_iter()
        .map(|(platform, result_ids)| PlatformResults {
            platform_label: platform.label(),
            platform,
            result_ids,
        })
        .collect();
    let firmware = firmware_history(&results);
    let result_count = results.len();
    if with_results == Some(false) {
        return Ok(Json(DrivePage {
            drive,
            result_count,
            results: Vec::new(),
            platforms: Vec::new(),
            firmware,
            tests,
        }));
    }
    let results = results
        .into_iter()
        .map(|r| DriveResult {
            id: r.id,
            url: result_url(r.id),
            platform_label: PlatformGroup::of(&r.tags).label(),
            rated_vs_measured: analysis::rated_vs_measured(&r.result, &drive.rated),
            tool: r.result.tool,
            tool_version: r.result.tool_version,
            data_pattern: r.result.data_pattern,
            test_size_bytes: r.result.test_size_bytes,
            firmware: r.tags.firmware,
            submitted_at: r.created_at,
            platform: r.tags.platform,
            source: r.source,
            flags: r.flags,
        })
        .collect();
    Ok(Json(DrivePage { drive, result_count, results, platforms, firmware, tests }))
}

/// `GET /drives/{id}`'s query.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct DriveQuery {
    /// `false`: leave the results and their grouping out (default `true`)
    results: Option<bool>,
}

/// A drive's firmware over time
///
/// The firmware versions the drive's results were tagged with, in numbered order, and
/// per test and pool (platform group and data pattern) measured with two or more of
/// them: each version's median and n, and each step between consecutive versions (the
/// later's results against the earlier's: ratio, 95 % interval, verdict), marked a
/// change only when it is clear.
#[utoipa::path(
    get,
    path = "/drives/{id}/firmware",
    operation_id = "drive_firmware",
    tag = "drives",
    params(("id" = String, Path, description = "Catalogue id, e.g. `crucial-realssd-c300-64gb`")),
    responses(
        (status = 200, description = "The firmware history", body = FirmwareHistory),
        (status = 400, description = "A query parameter (this route takes none)", body = ErrorBody),
        (status = 404, description = "No such drive in the catalogue", body = ErrorBody),
    )
)]
async fn firmware(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Json<FirmwareHistory>> {
    Ok(Json(firmware_of(&state, &id).await?))
}

/// How a firmware step is called a change, as the answer says it.
const FIRMWARE_METHOD: &str = "Each version's results are set against the previous version's in the \
    same pool and test (Hodges–Lehmann ratio with its 95 % rank interval); a step is a change only \
    when the difference is clear (its 99 % interval leaves out 1), so that testing every test of \
    every pool marks about one step in a hundred by chance.";

/// Drive `id`'s firmware history.
pub(crate) async fn firmware_of(state: &AppState, id: &str) -> ApiResult<FirmwareHistory> {
    catalogue_drive(state, id).await?;
    // As the drive answer: burst figures, a sweep's points are no firmware samples.
    let results = state.storage.results_for_drives(&[id.to_string()], ResultFigures::Burst).await?;
    type Series = BTreeMap<String, FigureValues>;
    let mut by: BTreeMap<(PlatformGroup, Option<DataPattern>, TestKey), Series> = BTreeMap::new();
    let mut versions: Vec<String> = Vec::new();
    for r in &results {
        let Some(fw) = r.tags.firmware.clone() else { continue };
        if !versions.contains(&fw) {
            versions.push(fw.clone());
        }
        let platform = PlatformGroup::of(&r.tags);
        for (key, m) in r.result.keyed_metrics() {
            let v = by
                .entry((platform.clone(), r.result.data_pattern, key))
                .or_default()
                .entry(fw.clone())
                .or_default();
            v.mbps.extend(m.mbps);
            v.iops.extend(m.iops);
            v.latency_us.extend(m.latency_us);
        }
    }
    versions.sort_by(|a, b| bench::firmware::version_order(a, b));
    let series = by
        .into_iter()
        .filter(|(_, s)| s.len() >= 2)
        .map(|((platform, data_pattern, test), mut s)| {
            for v in s.values_mut() {
                for f in [&mut v.mbps, &mut v.iops, &mut v.latency_us] {
                    f.sort_by(f64::total_cmp);
                }
            }
            let steps = bench::firmware::steps(&s);
            let figure = steps.first().map_or(Figure::Mbps, |st| st.figure);
            let points = versions
                .iter()
                .map(|fw| {
                    let v = s.get(fw)?;
                    let values = match figure {
                        Figure::Mbps => &v.mbps,
                        Figure::Iops => &v.iops,
                        Figure::Latency => &v.latency_us,
                    };
                    let summary = analysis::summarize(values)?;
                    Some(FirmwarePoint { median: summary.median, n: summary.count })
                })
                .collect();
            FirmwareSeries {
                test_id: test.id(),
                test,
                platform_label: platform.label(),
                platform,
                data_pattern,
                figure,
                points,
                steps: steps
                    .into_iter()
                    .map(|st| FirmwareStep {
                        from: st.from,
                        to: st.to,
                        difference: st.difference,
                        change: st.change,
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(FirmwareHistory { drive: id.to_string(), versions, method: FIRMWARE_METHOD.to_string(), series })
}

/// Every firmware the results were measured with (untagged ones as `None`), in order of
/// first submission.
fn firmware_history(results: &[StoredResult]) -> Vec<FirmwareSeen> {
    let mut seen: Vec<FirmwareSeen> = Vec::new();
    for r in results {
        let firmware = r.tags.firmware.clone();
        match seen.iter_mut().find(|f| f.firmware == firmware) {
            Some(f) => {
                f.result_ids.push(r.id);
                f.first_submitted = f.first_submitted.min(r.created_at);
                f.last_submitted = f.last_submitted.max(r.created_at);
            }
            None => seen.push(FirmwareSeen {
                firmware,
                result_ids: vec![r.id],
                first_submitted: r.created_at,
                last_submitted: r.created_at,
            }),
        }
    }
    seen.sort_by(|a, b| (a.first_submitted, &a.firmware).cmp(&(b.first_submitted, &b.firmware)));
    seen
}

/// The rated-vs-measured embeds' parameters.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct RatedChartParams {
    /// Which rated figure (default `seq-read`)
    #[param(inline)]
    figure: Option<RatedFigure>,
    /// Colours (default `light`)
    #[param(inline)]
    theme: Option<ChartTheme>,
    /// Pixels (default 720); the height follows from the capacities
    #[param(inline)]
    width: Option<ChartWidth>,
}

/// `figure`: an id of `charts::RATED_FIGURES`.
#[derive(Debug, Clone, Copy)]
struct RatedFigure(&'static str);

impl<'de> serde::Deserialize<'de> for RatedFigure {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let asked = <String as serde::Deserialize>::deserialize(d)?;
        let ids = || charts::RATED_FIGURES.iter().map(|f| f.1);
        ids().find(|f| *f == asked).map(RatedFigure).ok_or_else(|| {
            let detail = format!("{asked:?} is not one of {}", ids().collect::<Vec<_>>().join(", "));
            serde::de::Error::custom(detail)
        })
    }
}

impl utoipa::PartialSchema for RatedFigure {
    fn schema() -> RefOr<Schema> {
        let ids = charts::RATED_FIGURES.iter().map(|f| f.1);
        ObjectBuilder::new().schema_type(Type::String).enum_values(Some(ids)).into()
    }
}

impl utoipa::ToSchema for RatedFigure {}

const RATED_CAPTION: &str = "SSDBase · rated (outline) vs measured median (bar), single drives, n = results";

/// A drive's rated vs measured chart as SVG, for embedding
///
/// The chart the drive page draws for one rated figure, rendered by the same function:
/// one row per capacity of the drive's model line with the maker's rating, the median of
/// the single-drive results that measured it, their count, the gap in percent and the
/// flags that explain it.
#[utoipa::path(
    get,
    path = "/drives/{id}/rated.svg",
    operation_id = "drive_rated_chart_svg",
    tag = "drives",
    params(("id" = String, Path, description = "Catalogue id, e.g. `crucial-realssd-c300-64gb`"), RatedChartParams),
    responses(
        (status = 200, description = "The chart", content_type = "image/svg+xml", body = String),
        (status = 304, description = "Not modified: `If-None-Match` names the chart's current `ETag`"),
        (status = 400, description = "A figure, theme or width that does not read, or another parameter",
            body = ErrorBody),
        (status = 404, description = "No such drive, or the catalogue has no rating of this figure for its model line",
            body = ErrorBody),
    )
)]
async fn rated_svg(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(params): TypedQuery<RatedChartParams>,
) -> ApiResult<Response> {
    let (style, chart) = rated_chart(&state, &id, params).await?;
    let theme = style.theme;
    embed::svg(style, charts::rated_bars_height(&chart), RATED_CAPTION.to_string(), move |area| {
        charts::draw_rated_bars(area, &chart, theme).map(drop).map_err(|e| e.to_string())
    })
    .await
}

/// A drive's rated vs measured chart as PNG, for embedding
///
/// The same chart as `GET /drives/{id}/rated.svg`, as a PNG image.
#[utoipa::path(
    get,
    path = "/drives/{id}/rated.png",
    operation_id = "drive_rated_chart_png",
    tag = "drives",
    params(("id" = String, Path, description = "Catalogue id, e.g. `crucial-realssd-c300-64gb`"), RatedChartParams),
    responses(
        (status = 200, description = "The chart", content(("image/png"))),
        (status = 304, description = "Not modified: `If-None-Match` names the chart's current `ETag`"),
        (status = 400, description = "A figure, theme or width that does not read, or another parameter",
            body = ErrorBody),
        (status = 404, description = "No such drive, or the catalogue has no rating of this figure for its model line",
            body = ErrorBody),
    )
)]
async fn rated_png(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(params): TypedQuery<RatedChartParams>,
) -> ApiResult<Response> {
    let (style, chart) = rated_chart(&state, &id, params).await?;
    let theme = style.theme;
    embed::png(style, charts::rated_bars_height(&chart), RATED_CAPTION.to_string(), move |area| {
        charts::draw_rated_bars(area, &chart, theme).map(drop).map_err(|e| e.to_string())
    })
    .await
}

/// The rated-vs-measured chart of drive `id` that `params` ask for, built from the same
/// data the drive page reads: each capacity of the model line with its latest 500
/// results, as `GET /results?drive=ID&limit=500` lists them.
async fn rated_chart(
    state: &AppState,
    id: &str,
    params: RatedChartParams,
) -> ApiResult<(ChartStyle, charts::RatedBars)> {
    let figure = params.figure.map_or(charts::RATED_FIGURES[0].1, |f| f.0);
    Ok((ChartStyle::new(params.theme, params.width), rated_bars(state, id, figure).await?))
}

/// Drive `id`'s rated-vs-measured chart of `figure` (an id of `charts::RATED_FIGURES`).
async fn rated_bars(state: &AppState, id: &str, figure: &str) -> ApiResult<charts::RatedBars> {
    let drive = catalogue_drive(state, id).await?;
    let rows = super::rated::model_line_rows(state, id).await?;
    charts::rated_charts(&rows).into_iter().find(|(f, _)| *f == figure).map(|(_, chart)| chart).ok_or_else(
        || {
            ApiError::not_found(
                format!("the catalogue has no {figure} rating for the {} {}", drive.vendor, drive.model),
                Some("figure".into()),
            )
        },
    )
}

/// The results of drive `id` the drive page reads: the latest 500 visible ones, as
/// `GET /results?drive=ID&limit=500` lists them.
async fn latest_results(state: &AppState, id: &str) -> ApiResult<Vec<StoredResult>> {
    super::rated::results_of(state, id, &[]).await
}

/// The distribution embeds' parameters.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct DistributionChartParams {
    /// The test: its tool family and short name, as the drive page's embed links give it
    #[param(example = "cdm-native SEQ 1MiB Q1T1 read")]
    test: String,
    /// Colours (default `light`)
    #[param(inline)]
    theme: Option<ChartTheme>,
    /// Pixels (default 720); the height follows from the groups
    #[param(inline)]
    width: Option<ChartWidth>,
}

const DISTRIBUTION_CAPTION: &str = "SSDBase · every result a dot, box median ± MAD, whiskers min to max";

/// A drive's distribution chart of one test as SVG, for embedding
///
/// The chart the drive page draws for one test, rendered by the same function: per
/// platform group and data pattern every result as a dot over a box of median ± MAD,
/// whiskers from min to max, and the sample count.
#[utoipa::path(
    get,
    path = "/drives/{id}/distribution.svg",
    operation_id = "drive_distribution_chart_svg",
    tag = "drives",
    params(("id" = String, Path, description = "Catalogue id, e.g. `crucial-realssd-c300-64gb`"), DistributionChartParams),
    responses(
        (status = 200, description = "The chart", content_type = "image/svg+xml", body = String),
        (status = 304, description = "Not modified: `If-None-Match` names the chart's current `ETag`"),
        (status = 400, description = "No test, a theme or width that does not read, or another parameter",
            body = ErrorBody),
        (status = 404, description = "No such drive, or none of its results ran this test", body = ErrorBody),
    )
)]
async fn distribution_svg(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(params): TypedQuery<DistributionChartParams>,
) -> ApiResult<Response> {
    let style = ChartStyle::new(params.theme, params.width);
    let chart = distribution(&state, &id, &params.test).await?;
    let theme = style.theme;
    embed::svg(style, charts::distribution_height(&chart), DISTRIBUTION_CAPTION.to_string(), move |area| {
        charts::draw_distribution(area, &chart, theme).map(drop).map_err(|e| e.to_string())
    })
    .await
}

/// A drive's distribution chart of one test as PNG, for embedding
///
/// The same chart as `GET /drives/{id}/distribution.svg`, as a PNG image.
#[utoipa::path(
    get,
    path = "/drives/{id}/distribution.png",
    operation_id = "drive_distribution_chart_png",
    tag = "drives",
    params(("id" = String, Path, description = "Catalogue id, e.g. `crucial-realssd-c300-64gb`"), DistributionChartParams),
    responses(
        (status = 200, description = "The chart", content(("image/png"))),
        (status = 304, description = "Not modified: `If-None-Match` names the chart's current `ETag`"),
        (status = 400, description = "No test, a theme or width that does not read, or another parameter",
            body = ErrorBody),
        (status = 404, description = "No such drive, or none of its results ran this test", body = ErrorBody),
    )
)]
async fn distribution_png(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(params): TypedQuery<DistributionChartParams>,
) -> ApiResult<Response> {
    let style = ChartStyle::new(params.theme, params.width);
    let chart = distribution(&state, &id, &params.test).await?;
    let theme = style.theme;
    embed::png(style, charts::distribution_height(&chart), DISTRIBUTION_CAPTION.to_string(), move |area| {
        charts::draw_distribution(area, &chart, theme).map(drop).map_err(|e| e.to_string())
    })
    .await
}

/// Drive `id`'s distribution chart of `test` (a test id as `charts::drive_distributions`
/// names them), from the results the drive page reads.
async fn distribution(state: &AppState, id: &str, test: &str) -> ApiResult<charts::Distribution> {
    catalogue_drive(state, id).await?;
    let results = latest_results(state, id).await?;
    let mut all =
        charts::drive_distributions(&results.iter().map(|r| (&r.result, &r.tags)).collect::<Vec<_>>());
    let known: Vec<String> = all.iter().map(|(k, _)| k.id()).collect();
    match known.iter().position(|k| k == test) {
        Some(i) => Ok(all.swap_remove(i).1),
        None => Err(ApiError::not_found(
            format!("no result of drive {id:?} ran {test:?}; its tests are: {}", known.join(", ")),
            Some("test".into()),
        )),
    }
}

/// Catalogue drive `id`, or 404 pointing at the path's `id`.
pub(super) async fn catalogue_drive(state: &AppState, id: &str) -> ApiResult<bench::DriveSku> {
    state
        .storage
        .get_drive(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no drive {id:?} in the catalogue"), Some("id".into())))
}

/// The chart that stands for a drive in link previews and the iframe embed: its model
/// line's rated vs measured chart of one figure, or (no rating, or none measured) the
/// distribution of one test.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum HeadlineChart {
    Rated(&'static str),
    Distribution(String),
}

impl HeadlineChart {
    /// The chart's embed path under `/api/v1` with its query, without the extension
    /// (`.svg` or `.png` follows), e.g. `/drives/ID/rated` and `?figure=seq-read`.
    pub(super) fn embed(&self, id: &str) -> (String, String) {
        use api_types::links::encode;
        match self {
            HeadlineChart::Rated(figure) => {
                (format!("{}/rated", drive_url(id)), format!("figure={}", encode(figure)))
            }
            HeadlineChart::Distribution(test) => {
                (format!("{}/distribution", drive_url(id)), format!("test={}", encode(test)))
            }
        }
    }
}

/// Drive `id`'s headline chart: the first rated figure some result of its model line
/// measured, else its most measured test's distribution; `None` without results.
pub(super) async fn headline_chart(state: &AppState, id: &str) -> ApiResult<Option<HeadlineChart>> {
    // One rated table for every figure (it was built once per figure: four times per
    // embed, the slowest route of the mixed load).
    let rows = super::rated::model_line_rows(state, id).await?;
    for (figure, chart) in charts::rated_charts(&rows) {
        if chart.rows.iter().any(|r| r.measured.is_some()) {
            return Ok(Some(HeadlineChart::Rated(figure)));
        }
    }
    let results = latest_results(state, id).await?;
    let all = charts::drive_distributions(&results.iter().map(|r| (&r.result, &r.tags)).collect::<Vec<_>>());
    Ok(all
        .iter()
        .max_by_key(|(_, d)| d.groups.iter().map(|g| g.values.len()).sum::<usize>())
        .map(|(k, _)| HeadlineChart::Distribution(k.id())))
}

/// Drive `id`'s headline chart drawn `width` pixels wide: RGB rows (caption included),
/// their count and the theme.
pub(super) async fn headline_rgb(
    state: &AppState,
    id: &str,
    chart: &HeadlineChart,
    width: u32,
) -> ApiResult<(Vec<u8>, u32)> {
    let theme = ChartStyle::new(None, None).theme;
    let rgb = match chart {
        HeadlineChart::Rated(figure) => {
            let chart = rated_bars(state, id, figure).await?;
            let height = charts::rated_bars_height(&chart);
            let rgb = tokio::task::spawn_blocking(move || {
                charts::render::to_rgb(width, height, theme, RATED_CAPTION, |area| {
                    charts::draw_rated_bars(area, &chart, theme).map(drop).map_err(|e| e.to_string())
                })
            });
            (rgb.await.map_err(anyhow::Error::from)?, height)
        }
        HeadlineChart::Distribution(test) => {
            let chart = distribution(state, id, test).await?;
            let height = charts::distribution_height(&chart);
            let rgb = tokio::task::spawn_blocking(move || {
                charts::render::to_rgb(width, height, theme, DISTRIBUTION_CAPTION, |area| {
                    charts::draw_distribution(area, &chart, theme).map(drop).map_err(|e| e.to_string())
                })
            });
            (rgb.await.map_err(anyhow::Error::from)?, height)
        }
    };
    let (rgb, height) = rgb;
    Ok((rgb.map_err(anyhow::Error::msg)?, height + charts::render::CAPTION_H))
}
