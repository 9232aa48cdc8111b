//! Factor effects: `GET /effects` (per factor, the effect of one value against another
//! on each test, combined across drives; JSON or CSV) and `GET /effects/drives` (the
//! drives behind one). Both read the derived `effects` rows (`store::effects`), which the
//! server's background refresh keeps in step with the results, never the metrics.

use super::browse::OutputFormat;
use super::embed::{self, ChartStyle, ChartTheme, ChartWidth};
use super::extract::TypedQuery;
use super::state::AppState;
use crate::csv_table::{self, CsvTable};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::storage::effects::EffectKey;
use api_types::links::{with_query, API};
use api_types::{EffectDrive, EffectDrives, Effects, FactorEffect, FactorEffects};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bench::difference::Figure;
use bench::effects::{Effect, FACTORS};
use serde::Deserialize;
use std::collections::BTreeMap;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(effects))
        .routes(routes!(drives))
        .routes(routes!(chart_svg))
        .routes(routes!(chart_png))
}

/// How effects are found, as the answer says it.
pub const METHOD: &str = "Within each drive, results whose settings differ in this factor only \
    (both values known) are set against each other, test by test: the Hodges–Lehmann ratio of \
    the b results to the a results with its 95 % rank interval. A drive's pairs, then the drives, \
    are combined by a random-effects meta-analysis of the log ratios (DerSimonian–Laird, with the \
    Hartung–Knapp interval). Clear: the 99 % interval leaves out 1; likely: only the 95 % one \
    does; too few results: no drive had enough results a side for an interval.";

/// A factor's name: one of `bench::effects::FACTORS`.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "String")]
pub(crate) struct FactorName(usize);

impl FactorName {
    pub fn name(&self) -> &'static str {
        FACTORS[self.0]
    }
}

impl TryFrom<String> for FactorName {
    type Error = String;
    fn try_from(s: String) -> Result<FactorName, String> {
        FACTORS
            .iter()
            .position(|f| **f == s)
            .map(FactorName)
            .ok_or_else(|| format!("{s:?} is not a factor; expected one of: {}", FACTORS.join(", ")))
    }
}

impl utoipa::PartialSchema for FactorName {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(FACTORS.iter().map(|f| f.to_string())))
            .into()
    }
}

impl utoipa::ToSchema for FactorName {}

/// `GET /effects`' parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct EffectsParams {
    /// Only this factor (default: every factor)
    #[param(inline)]
    pub factor: Option<FactorName>,
    /// `json` (default) or `csv`
    #[param(inline)]
    pub format: Option<OutputFormat>,
}

/// `GET /effects/drives`' parameters: one effect, as `/effects` names it.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct EffectParams {
    #[param(inline)]
    factor: FactorName,
    /// The first value, e.g. `random`
    a: String,
    /// The second value, e.g. `zero-fill`
    b: String,
    /// The test's id, e.g. `cdm-native SEQ 1MiB Q8T1 write`
    test: String,
    /// `mbps` (default), `iops` or `latency`
    #[param(inline)]
    figure: Option<Figure>,
}

/// How one value of a factor stands against another, across drives
///
/// For every factor (a tag field that can change while the drive stays the same:
/// chipset, storage controller, driver and its version, mode, link, link power, RAID
/// level and members, filesystem, data pattern, test size, firmware, OS), the effect of
/// value `a` against value `b` on each test: `ratio` is how many times the result with
/// `b` is the one with `a`, with its 95 % interval and a verdict, the drives (`units`)
/// and results (`n_a`, `n_b`) behind it, and the pairs left out because they differ in
/// more than this factor. `pending_drives` counts drives whose latest results are still
/// being counted.
#[utoipa::path(
    get,
    path = "/effects",
    operation_id = "factor_effects",
    tag = "drives",
    params(EffectsParams),
    responses(
        (status = 200, description = "The effects, per factor",
            content((Effects = "application/json"), (String = "text/csv"))),
        (status = 400, description = "An unknown parameter or factor", body = ErrorBody),
    )
)]
async fn effects(
    State(state): State<AppState>,
    TypedQuery(EffectsParams { factor, format }): TypedQuery<EffectsParams>,
) -> ApiResult<Response> {
    let answer = effects_of(&state, factor.map(|f| f.name())).await?;
    Ok(match format.unwrap_or_default() {
        OutputFormat::Json => Json(answer).into_response(),
        OutputFormat::Csv => csv_table::response("effects.csv", effects_csv(&answer)),
    })
}

/// The effects of one factor, or of all.
pub(crate) async fn effects_of(state: &AppState, factor: Option<&'static str>) -> ApiResult<Effects> {
    let snapshot = state.storage.effects(factor).await?;
    let mut by_factor: BTreeMap<&str, Vec<FactorEffect>> = BTreeMap::new();
    for (key, effect) in snapshot.effects {
        let Some(name) = FACTORS.iter().find(|f| **f == key.factor) else { continue };
        by_factor.entry(name).or_default().push(factor_effect(&key, effect));
    }
    let factors = FACTORS
        .iter()
        .filter(|f| factor.is_none_or(|only| only == **f))
        .map(|f| FactorEffects {
            factor: f.to_string(),
            label: label(f),
            left_out: snapshot.left_out.get(*f).copied().unwrap_or(0).max(0) as u64,
            effects: by_factor.remove(f).unwrap_or_default(),
        })
        .collect();
    Ok(Effects {
        method: METHOD.to_string(),
        pending_drives: snapshot.stale_drives.max(0) as u64,
        pending_effects: snapshot.touched.max(0) as u64,
        factors,
    })
}

/// A factor's label as its field names it (`Data pattern`).
pub(crate) fn label(factor: &str) -> String {
    bench::fields::field(factor).map_or(factor, |f| f.label).to_string()
}

/// The API's list of the drives behind effect `key`.
pub(crate) fn drives_url(key: &EffectKey) -> String {
    let test_id = key.test.id();
    with_query(
        &format!("{API}/effects/drives"),
        [
            ("factor", key.factor.as_str()),
            ("a", key.a.as_str()),
            ("b", key.b.as_str()),
            ("test", test_id.as_str()),
            ("figure", key.figure.id()),
        ],
    )
}

fn factor_effect(key: &EffectKey, effect: Effect) -> FactorEffect {
    let test_id = key.test.id();
    let drives_url = drives_url(key);
    FactorEffect {
        a: key.a.clone(),
        b: key.b.clone(),
        test: key.test,
        test_id,
        figure: key.figure,
        effect,
        drives_url,
    }
}

/// The drives behind one effect
///
/// One effect of `GET /effects` (a factor, its two values, a test and figure) with each
/// drive behind it: the drive's own ratio, interval and verdict, and its results a side.
#[utoipa::path(
    get,
    path = "/effects/drives",
    operation_id = "effect_drives",
    tag = "drives",
    params(EffectParams),
    responses(
        (status = 200, description = "The effect and its drives", body = EffectDrives),
        (status = 400, description = "An unknown parameter or factor, or one missing", body = ErrorBody),
        (status = 404, description = "No such effect was measured", body = ErrorBody),
    )
)]
async fn drives(
    State(state): State<AppState>,
    TypedQuery(p): TypedQuery<EffectParams>,
) -> ApiResult<Json<EffectDrives>> {
    Ok(Json(drives_of(&state, p).await?))
}

/// One effect and the drives behind it.
pub(crate) async fn drives_of(state: &AppState, p: EffectParams) -> ApiResult<EffectDrives> {
    let figure = p.figure.unwrap_or(Figure::Mbps);
    let snapshot = state.storage.effects(Some(p.factor.name())).await?;
    let Some((key, combined)) = snapshot
        .effects
        .into_iter()
        .find(|(k, _)| k.a == p.a && k.b == p.b && k.figure == figure && k.test.id() == p.test)
    else {
        return Err(ApiError::not_found(
            format!(
                "no effect of {} {:?} against {:?} on {:?} ({}) was measured",
                p.factor.name(),
                p.a,
                p.b,
                p.test,
                figure.id()
            ),
            None,
        ));
    };
    let drives = state
        .storage
        .effect_drives(&key)
        .await?
        .into_iter()
        .map(|d| EffectDrive { drive: d.drive_sku, drive_label: d.label, effect: d.effect })
        .collect();
    Ok(EffectDrives {
        factor: key.factor.clone(),
        label: label(&key.factor),
        combined: factor_effect(&key, combined),
        drives,
    })
}

const CSV_COLUMNS: &[&str] = &[
    "factor",
    "a",
    "b",
    "test",
    "figure",
    "ratio",
    "low",
    "high",
    "verdict",
    "drives",
    "drives_weighed",
    "n_a",
    "n_b",
];

fn effects_csv(e: &Effects) -> String {
    let mut table = CsvTable::new(CSV_COLUMNS, true);
    let number = |v: Option<f64>| v.map(|x| format!("{x:.4}")).unwrap_or_default();
    for f in &e.factors {
        for x in &f.effects {
            table.row([
                f.factor.clone(),
                x.a.clone(),
                x.b.clone(),
                x.test_id.clone(),
                x.figure.id().to_string(),
                number(Some(x.effect.ratio)),
                number(x.effect.low),
                number(x.effect.high),
                x.effect.verdict.words().to_string(),
                x.effect.units.to_string(),
                x.effect.weighed.to_string(),
                x.effect.n_a.to_string(),
                x.effect.n_b.to_string(),
            ]);
        }
    }
    table.finish()
}

/// The effects chart embeds' parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct EffectsChartParams {
    #[param(inline)]
    factor: FactorName,
    /// `light` (default) or `dark`
    #[param(inline)]
    theme: Option<ChartTheme>,
    /// Width in pixels (default 720)
    #[param(inline)]
    width: Option<ChartWidth>,
}

/// The chart of one factor's effects, its height, caption and ETag.
async fn forest(
    state: &AppState,
    p: &EffectsChartParams,
    kind: &str,
) -> ApiResult<(charts::Forest, u32, String, String)> {
    let e = effects_of(state, Some(p.factor.name())).await?;
    let style = ChartStyle::new(p.theme, p.width);
    let etag = embed::data_etag(kind, &e.factors, &format!("{style:?}"));
    let chart = charts::forest_of(&e.factors[0]);
    let height = charts::forest_height(&chart);
    let caption = "SSDBase · within-drive effects, drives combined · filled: clear or likely".to_string();
    Ok((chart, height, caption, etag))
}

/// A factor's effects as SVG, for embedding
///
/// One row per effect of the factor (a test, one value against another): its ratio as a
/// dot and its 95 % interval on a log scale around 1 (no effect), with the verdict and
/// the drives behind it; filled when clear or likely. Takes `factor`, `theme`, `width`.
#[utoipa::path(
    get,
    path = "/effects/chart.svg",
    operation_id = "effects_chart_svg",
    tag = "drives",
    params(EffectsChartParams),
    responses(
        (status = 200, description = "The chart", content_type = "image/svg+xml", body = String),
        (status = 304, description = "Not modified: `If-None-Match` names the chart's current `ETag`"),
        (status = 400, description = "No factor, an unknown one, or a theme or width that does not read", body = ErrorBody),
    )
)]
async fn chart_svg(
    State(state): State<AppState>,
    headers: HeaderMap,
    TypedQuery(p): TypedQuery<EffectsChartParams>,
) -> ApiResult<Response> {
    let (chart, height, caption, etag) = forest(&state, &p, "effects.svg").await?;
    if let Some(unchanged) = embed::not_modified(&headers, &etag) {
        return Ok(unchanged);
    }
    let style = ChartStyle::new(p.theme, p.width);
    let theme = style.theme;
    let mut res = embed::svg(style, height, caption, move |area| {
        charts::draw_forest(area, &chart, theme).map(drop).map_err(|e| e.to_string())
    })
    .await?;
    embed::set_etag(&mut res, &etag);
    Ok(res)
}

/// A factor's effects as PNG, for embedding
///
/// The same chart as `GET /effects/chart.svg`, as a PNG image.
#[utoipa::path(
    get,
    path = "/effects/chart.png",
    operation_id = "effects_chart_png",
    tag = "drives",
    params(EffectsChartParams),
    responses(
        (status = 200, description = "The chart", content(("image/png"))),
        (status = 304, description = "Not modified: `If-None-Match` names the chart's current `ETag`"),
        (status = 400, description = "No factor, an unknown one, or a theme or width that does not read", body = ErrorBody),
    )
)]
async fn chart_png(
    State(state): State<AppState>,
    headers: HeaderMap,
    TypedQuery(p): TypedQuery<EffectsChartParams>,
) -> ApiResult<Response> {
    let (chart, height, caption, etag) = forest(&state, &p, "effects.png").await?;
    if let Some(unchanged) = embed::not_modified(&headers, &etag) {
        return Ok(unchanged);
    }
    let style = ChartStyle::new(p.theme, p.width);
    let theme = style.theme;
    let mut res = embed::png(style, height, caption, move |area| {
        charts::draw_forest(area, &chart, theme).map(drop).map_err(|e| e.to_string())
    })
    .await?;
    embed::set_etag(&mut res, &etag);
    Ok(res)
}
