// Scout repository (docs/scout.md 5.2): the pages read runs and results only through listRuns / listRunPosts
// and the actions below. Two implementations share one contract: `createLiveRepository` over the
// REST API and `createMockRepository` over fixture data. Both return the same domain objects
// (camelCase, times as Date or null) and the same Page shape, so a page never pages an array itself:
//
//   listRuns(query)              → Page<ScoutRun>
//   getRun(runId)                → ScoutRun
//   listRunPosts(runId, query)   → Page<ScoutPost> & {run: ScoutRun}
//   suggestTerms(intent)         → [string]: proposed search terms, the topic's core first
//   createScan(brief)            → {run: ScoutRun, job: ScoutJob}
//   deleteRun(runId)             → undefined (409 while queued or running)
//   actOnPost(postId, action, {draftText}) → {post: ScoutPost, run: ScoutRun}   action: draft | skip | publish
//   deletePost(postId)           → {run: ScoutRun | null}
//   getJob(jobId), cancelJob(jobId) → ScoutJob (cancel: a queued job at once, a running one flagged)
//
// Both throw RepositoryError {status, code, message} with the service's error words (400
// invalid_brief / invalid_target_count, 404 run_not_found / post_not_found / job_not_found, 409
// run_not_terminal / post_status_conflict / job_terminal). Results saved before runs existed show
// as one read-only synthetic legacy run per theme (`legacy: true`, no job, no terms).

import { apiRequest } from "../session.js";
import { naiveTerms, validateBrief } from "./brief.js";
import { RepositoryError } from "./errors.js";

export { RepositoryError };

export const RUNS_PAGE_SIZE = 10;
export const POSTS_PAGE_SIZE = 8;
export const MAX_PAGE_SIZE = 50;
export const TERMINAL_STATUSES = new Set(["succeeded", "failed", "cancelled"]);

// page < 1 → 1; pageSize < 1 → the endpoint default; never above 50.
export function normalizePaging(query = {}, defaultSize) {
  const page = Math.trunc(Number(query.page));
  const size = Math.trunc(Number(query.pageSize));
  return {
    page: Number.isFinite(page) && page >= 1 ? page : 1,
    pageSize: Number.isFinite(size) && size >= 1 ? Math.min(size, MAX_PAGE_SIZE) : defaultSize,
  };
}

// Wire times are int64 UTC unix nanoseconds (number or decimal string). 0, missing, invalid or
// later than now is "unknown" (null): never replaced by another field.
export function nanosToDate(value, { futureIsUnknown = false } = {}) {
  if (value === null || value === undefined || value === "" || value === 0 || value === "0") return null;
  let millis;
  try {
    millis = Number(BigInt(typeof value === "number" ? Math.trunc(value) : String(value)) / 1000000n);
  } catch {
    return null;
  }
  if (!Number.isFinite(millis) || millis <= 0) return null;
  if (futureIsUnknown && millis > Date.now() + 60_000) return null;
  return new Date(millis);
}

export function toRun(wire) {
  return {
    id: wire.id,
    jobId: wire.job_id || null,
    themeKey: wire.theme_key || "",
    themeLabel: wire.theme_label || wire.theme_key || "",
    intent: wire.intent || "",
    mode: wire.mode || "",
    legacy: Boolean(wire.legacy),
    terms: [...(wire.terms || [])],
    targetCount: Number(wire.target_count || 0),
    status: wire.status,
    searchedCount: Number(wire.searched_count || 0),
    duplicateCount: Number(wire.duplicate_count || 0),
    irrelevantCount: Number(wire.irrelevant_count || 0),
    eligibleCount: Number(wire.eligible_count || 0),
    pendingCount: Number(wire.pending_count || 0),
    shortfallCount: Number(wire.shortfall_count || 0),
    shortfallReasons: [...(wire.shortfall_reasons || [])],
    sourceFailures: (wire.source_failures || []).map((failure) => ({ source: failure.source, kind: failure.kind })),
    errorSummary: wire.error_summary || "",
    createdAt: nanosToDate(wire.created_at),
    startedAt: nanosToDate(wire.started_at),
    completedAt: nanosToDate(wire.completed_at),
  };
}

export function toPost(wire) {
  return {
    id: wire.id,
    runId: wire.run_id,
    themeKey: wire.theme_key || "",
    text: wire.text || "",
    author: wire.author || "",
    url: wire.url || "",
    matchReason: wire.match_reason || "",
    score: Number(wire.score || 0),
    status: wire.outreach_status || "new",
    draftText: wire.draft_text || "",
    postedAt: nanosToDate(wire.posted_at, { futureIsUnknown: true }),
    createdAt: nanosToDate(wire.created_at),
  };
}

export function toJob(wire) {
  return {
    id: wire.id,
    templateType: wire.template_type || "",
    refId: wire.ref_id || "",
    status: wire.status,
    progress: wire.progress || "",
    // The step as data: queued | preparing | searching | filtering | publishing | finished.
    progressStage: wire.progress_stage || "queued",
    progressStageNumber: Number(wire.progress_stage_number || 0),
    eligibleCount: Number(wire.eligible_count || 0),
    targetCount: Number(wire.target_count || 0),
    // Counts so far while queued or running, final once terminal.
    searchedCount: Number(wire.searched_count || 0),
    duplicateCount: Number(wire.duplicate_count || 0),
    irrelevantCount: Number(wire.irrelevant_count || 0),
    errorSummary: wire.error_summary || "",
    cancelRequested: Boolean(wire.cancel_requested),
    createdAt: nanosToDate(wire.created_at),
    startedAt: nanosToDate(wire.started_at),
    completedAt: nanosToDate(wire.completed_at),
    updatedAt: nanosToDate(wire.updated_at),
  };
}

function toPage(items, pagination) {
  return {
    items,
    page: pagination.page,
    pageSize: pagination.pageSize,
    total: pagination.total,
    totalPages: pagination.totalPages,
  };
}

// ---------------------------------------------------------------------------------------------
// Live: the public REST API (scout envelope {code, message, data, error}).

async function scoutCall(method, path, body) {
  const response = await apiRequest(method, path, body);
  let envelope = null;
  try {
    envelope = await response.json();
  } catch {
    envelope = null;
  }
  if (!response.ok || !envelope || envelope.code !== 102000) {
    throw new RepositoryError(
      response.status,
      (envelope && envelope.error) || "unavailable",
      (envelope && envelope.message) || response.statusText,
    );
  }
  return envelope.data;
}

function query(params) {
  return new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString();
}

export function createLiveRepository() {
  return {
    kind: "live",
    async listRuns(q = {}) {
      const paging = normalizePaging(q, RUNS_PAGE_SIZE);
      const data = await scoutCall("GET", `/api/v1/scout/runs?${query(paging)}`);
      return toPage(data.list.map(toRun), data.pagination);
    },
    async getRun(runId) {
      const data = await scoutCall("GET", `/api/v1/scout/runs/${encodeURIComponent(runId)}`);
      return toRun(data.run || data);
    },
    async listRunPosts(runId, q = {}) {
      const paging = normalizePaging(q, POSTS_PAGE_SIZE);
      const data = await scoutCall("GET", `/api/v1/scout/runs/${encodeURIComponent(runId)}/posts?${query(paging)}`);
      return { ...toPage(data.list.map(toPost), data.pagination), run: toRun(data.run) };
    },
    async suggestTerms(intent) {
      const data = await scoutCall("POST", "/api/v1/scout/suggestions", { intent });
      return data.terms;
    },
    async createScan(brief) {
      const data = await scoutCall("POST", "/api/v1/scout/scan", { brief });
      return { run: toRun(data.run), job: toJob(data.job) };
    },
    async deleteRun(runId) {
      await scoutCall("DELETE", `/api/v1/scout/runs/${encodeURIComponent(runId)}`);
    },
    async actOnPost(postId, action, { draftText } = {}) {
      const body = action === "draft" && draftText !== undefined ? { draft_text: draftText } : undefined;
      const data = await scoutCall("POST", `/api/v1/scout/posts/${encodeURIComponent(postId)}/${action}`, body);
      return { post: toPost(data.post), run: toRun(data.run) };
    },
    async deletePost(postId) {
      const data = await scoutCall("DELETE", `/api/v1/scout/posts/${encodeURIComponent(postId)}`);
      return { run: data.run ? toRun(data.run) : null };
    },
    async getJob(jobId) {
      return toJob(await scoutCall("GET", `/api/v1/jobs/${encodeURIComponent(jobId)}`));
    },
    async cancelJob(jobId) {
      return toJob(await scoutCall("POST", `/api/v1/jobs/${encodeURIComponent(jobId)}/cancel`));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Mock: fixture data in the REST wire shape ({runs: [...], posts: [...]}), ordered and paged by the
// same rules as the server: runs created_at DESC, id DESC; results score DESC, known posted_at
// before unknown, posted_at DESC, created_at DESC, id DESC.

function nanos(value) {
  const date = value instanceof Date ? value : null;
  return date ? date.getTime() : -1;
}

function compareDesc(a, b) {
  return a === b ? 0 : a > b ? -1 : 1;
}

export function compareRuns(a, b) {
  return compareDesc(nanos(a.createdAt), nanos(b.createdAt)) || compareDesc(a.id, b.id);
}

export function comparePosts(a, b) {
  return (
    compareDesc(a.score, b.score) ||
    compareDesc(a.postedAt !== null, b.postedAt !== null) ||
    compareDesc(nanos(a.postedAt), nanos(b.postedAt)) ||
    compareDesc(nanos(a.createdAt), nanos(b.createdAt)) ||
    compareDesc(a.id, b.id)
  );
}

function pageOf(sorted, paging) {
  const total = sorted.length;
  const offset = (paging.page - 1) * paging.pageSize;
  return {
    items: sorted.slice(offset, offset + paging.pageSize).map((item) => ({ ...item })),
    page: paging.page,
    pageSize: paging.pageSize,
    total,
    totalPages: Math.ceil(total / paging.pageSize),
  };
}

const PENDING = new Set(["new", "drafted"]);
// Allowed source states per action: new|drafted → drafted or skipped; only drafted → published.
const ACTIONS = { draft: ["new", "drafted"], skip: ["new", "drafted"], publish: ["drafted"] };
const ACTION_STATUS = { draft: "drafted", skip: "skipped", publish: "published" };

// The job of a fixture run, as the live service reports it: progress counters mirror the run.
export function fixtureJobWire(run) {
  const latest = [run.completed_at, run.started_at, run.created_at].find((value) => value && value !== "0");
  return {
    id: run.job_id, template_type: "scout_scan", ref_id: run.id, status: run.status,
    progress: run.job_progress || "",
    progress_stage: run.job_progress_stage || (TERMINAL_STATUSES.has(run.status) ? "finished" : "queued"),
    progress_stage_number: run.job_progress_stage_number || 0,
    eligible_count: run.eligible_count, target_count: run.target_count,
    searched_count: run.searched_count, duplicate_count: run.duplicate_count, irrelevant_count: run.irrelevant_count,
    error_summary: "", cancel_requested: false, created_at: run.created_at, started_at: run.started_at,
    completed_at: run.completed_at, updated_at: latest,
  };
}

function nowNanos() {
  return String(BigInt(Date.now()) * 1000000n);
}

// A legacy run's id: stable per theme, as the service derives it from owner and theme.
function legacyRunId(themeKey) {
  let hex = "";
  for (let seed = 0; seed < 4; seed += 1) {
    let hash = 0x811c9dc5 ^ seed;
    for (const char of `legacy:${themeKey}`) hash = Math.imul(hash ^ char.codePointAt(0), 0x01000193) >>> 0;
    hex += hash.toString(16).padStart(8, "0");
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const LEGACY_FALLBACK_KEY = "__legacy__";

// The theme key the service gives an intent written the same way: width-folded, lower case.
function themeKeyOf(intent) {
  return intent.normalize("NFKC").toLowerCase().trim().replace(/\s+/g, "-").slice(0, 200);
}

export function createMockRepository(fixtures) {
  const runs = new Map(fixtures.runs.map((wire) => [wire.id, toRun(wire)]));
  const jobs = new Map(fixtures.runs.filter((wire) => wire.job_id)
    .map((wire) => [wire.job_id, toJob(fixtureJobWire(wire))]));
  // Legacy results (no run_id) belong to their theme's synthetic run.
  const posts = new Map(fixtures.posts.map((wire) => {
    const post = toPost(wire);
    if (!wire.run_id) post.runId = legacyRunId(post.themeKey || LEGACY_FALLBACK_KEY);
    return [wire.id, post];
  }));
  const legacyKeys = new Map(fixtures.posts.filter((wire) => !wire.run_id)
    .map((wire) => [legacyRunId(wire.theme_key || LEGACY_FALLBACK_KEY), wire.theme_key || LEGACY_FALLBACK_KEY]));
  const runNotFound = () => new RepositoryError(404, "run_not_found", "run not found");
  const postNotFound = () => new RepositoryError(404, "post_not_found", "post not found");
  const membersOf = (runId) => [...posts.values()].filter((post) => post.runId === runId);

  // A legacy run as the service groups it: every count from its results, never short of a target.
  function legacyRun(runId) {
    const members = membersOf(runId);
    if (members.length === 0) return null;
    const created = members.map((post) => post.createdAt).filter(Boolean).sort((a, b) => a - b);
    const key = legacyKeys.get(runId);
    return {
      id: runId, jobId: null, themeKey: key, themeLabel: key, intent: "", mode: "topic", legacy: true, terms: [],
      targetCount: members.length, status: "succeeded", searchedCount: 0, duplicateCount: 0, irrelevantCount: 0,
      eligibleCount: members.length, pendingCount: 0, shortfallCount: 0, shortfallReasons: [], sourceFailures: [],
      errorSummary: "",
      createdAt: created.at(-1) || null, startedAt: created[0] || null, completedAt: created.at(-1) || null,
    };
  }

  function allRuns() {
    return [...runs.values(), ...[...legacyKeys.keys()].map(legacyRun).filter(Boolean)];
  }

  function findRun(runId) {
    return runs.get(runId) || (legacyKeys.has(runId) ? legacyRun(runId) : null);
  }

  // Counts follow the run's current results, as the service derives them (docs/scout.md 3.2): pending is
  // new + drafted results; the shortfall of a succeeded run is what its target still lacks.
  function runWithCounts(run) {
    const shortfallCount = run.status === "succeeded" ? Math.max(run.targetCount - run.eligibleCount, 0) : 0;
    if (!TERMINAL_STATUSES.has(run.status)) return { ...run, shortfallCount };
    const pendingCount = membersOf(run.id).filter((post) => PENDING.has(post.status)).length;
    return { ...run, terms: [...run.terms], shortfallCount, pendingCount };
  }

  function jobOf(jobId) {
    const job = jobs.get(jobId);
    if (!job) throw new RepositoryError(404, "job_not_found", "job not found");
    return job;
  }

  return {
    kind: "mock",
    async listRuns(q = {}) {
      const sorted = allRuns().sort(compareRuns).map(runWithCounts);
      return pageOf(sorted, normalizePaging(q, RUNS_PAGE_SIZE));
    },
    async getRun(runId) {
      const run = findRun(runId);
      if (!run) throw runNotFound();
      return runWithCounts(run);
    },
    async listRunPosts(runId, q = {}) {
      const run = findRun(runId);
      if (!run) throw runNotFound();
      // A run that has not finished exposes no results (docs/scout.md flow E).
      const members = run.status === "succeeded" ? membersOf(runId) : [];
      return { ...pageOf(members.sort(comparePosts), normalizePaging(q, POSTS_PAGE_SIZE)), run: runWithCounts(run) };
    },
    async suggestTerms(intent) {
      return naiveTerms(validateBrief({ intent, terms: ["-"] }).intent);
    },
    async createScan(input) {
      const brief = validateBrief(input);
      const id = crypto.randomUUID();
      const jobId = crypto.randomUUID();
      const created = nowNanos();
      const wire = {
        id, job_id: jobId, theme_key: String(brief.theme_key || "").trim() || themeKeyOf(brief.intent),
        theme_label: String(brief.theme_label || "").trim() || brief.intent, intent: brief.intent,
        mode: brief.mode, terms: brief.terms, target_count: brief.target_count, status: "queued",
        created_at: created, shortfall_reasons: [],
      };
      runs.set(id, toRun(wire));
      jobs.set(jobId, toJob(fixtureJobWire({ ...wire, eligible_count: 0 })));
      return { run: runWithCounts(runs.get(id)), job: { ...jobs.get(jobId) } };
    },
    async deleteRun(runId) {
      const run = findRun(runId);
      if (!run) throw runNotFound();
      if (!TERMINAL_STATUSES.has(run.status)) {
        throw new RepositoryError(409, "run_not_terminal", "the run is still queued or running; cancel its job first");
      }
      runs.delete(runId);
      if (run.jobId) jobs.delete(run.jobId);
      for (const post of membersOf(runId)) posts.delete(post.id);
    },
    async actOnPost(postId, action, { draftText } = {}) {
      const post = posts.get(postId);
      if (!post) throw postNotFound();
      if (!ACTIONS[action].includes(post.status)) {
        throw new RepositoryError(409, "post_status_conflict", `a ${post.status} post cannot be ${action}`);
      }
      post.status = ACTION_STATUS[action];
      if (action === "draft" && draftText !== undefined) post.draftText = draftText;
      return { post: { ...post }, run: runWithCounts(findRun(post.runId)) };
    },
    async deletePost(postId) {
      const post = posts.get(postId);
      if (!post) throw postNotFound();
      posts.delete(postId);
      const run = runs.get(post.runId);
      if (!run) {
        const legacy = legacyRun(post.runId);
        return { run: legacy ? runWithCounts(legacy) : null };
      }
      // A succeeded run that met its target and falls short by deletions says so (docs/scout.md 2.2).
      if (run.status === "succeeded" && run.eligibleCount - 1 < run.targetCount && run.shortfallReasons.length === 0) {
        run.shortfallReasons = ["results_deleted"];
      }
      run.eligibleCount = Math.max(run.eligibleCount - 1, 0);
      return { run: runWithCounts(run) };
    },
    async getJob(jobId) {
      return { ...jobOf(jobId) };
    },
    async cancelJob(jobId) {
      const job = jobOf(jobId);
      if (job.status === "cancelled") return { ...job };
      if (TERMINAL_STATUSES.has(job.status)) {
        throw new RepositoryError(409, "job_terminal", `the job already ${job.status}`);
      }
      const now = new Date();
      job.cancelRequested = true;
      job.updatedAt = now;
      if (job.status === "queued") {
        Object.assign(job, { status: "cancelled", progress: "cancelled", progressStage: "finished", completedAt: now });
        const run = runs.get(job.refId);
        if (run) {
          Object.assign(run, { status: "cancelled", completedAt: now, searchedCount: 0, duplicateCount: 0,
            irrelevantCount: 0, eligibleCount: 0, shortfallReasons: [] });
        }
      }
      return { ...job };
    },
  };
}
