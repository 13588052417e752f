// The one contract both scout repositories must pass on the same fixture
// (services/gateway/gateway/pages/assets/scout/fixtures.json): order, pagination, unknown-time
// rules and the actions' effects. `id(n)` maps a fixture id to the id the repository under test
// holds it by (the live seeding gives every fixture row a per-test prefix).
//
// runScoutContract(repository, id) → [{name, ok, detail}], one entry per case, run in order
// (later cases change data).

const RUN = (n) => `00000000-0000-4000-8000-0000000001${String(n).padStart(2, "0")}`;
const POST = (n) => `00000000-0000-4000-8000-0000000002${String(n).padStart(2, "0")}`;
const JOB = (n) => `00000000-0000-4000-8000-0000000003${String(n).padStart(2, "0")}`;

// The domain shapes both repositories return: the same keys, whatever the wire carried.
const RUN_KEYS = ["completedAt", "createdAt", "duplicateCount", "eligibleCount", "errorSummary", "id",
  "intent", "irrelevantCount", "jobId", "legacy", "mode", "pendingCount", "searchedCount", "shortfallCount",
  "shortfallReasons", "sourceFailures", "startedAt", "status", "targetCount", "terms", "themeKey", "themeLabel"];
const POST_KEYS = ["author", "createdAt", "draftText", "id", "matchReason", "postedAt", "runId", "score", "status",
  "text", "themeKey", "url"];
const LEGACY_THEME = "夜市小吃";
const JOB_KEYS = ["cancelRequested", "completedAt", "createdAt", "duplicateCount", "eligibleCount",
  "errorSummary", "id", "irrelevantCount", "progress", "progressStage", "progressStageNumber", "refId", "searchedCount", "startedAt", "status",
  "targetCount", "templateType", "updatedAt"];
const keys = (object) => Object.keys(object).sort();
const iso = (date) => (date instanceof Date ? date.toISOString() : date);

function same(actual, expected) {
  return JSON.stringify(actual) === JSON.stringify(expected);
}

export async function runScoutContract(repository, id) {
  const results = [];
  const runIds = (ns) => ns.map((n) => id(RUN(n)));
  const postIds = (ns) => ns.map((n) => id(POST(n)));
  async function check(name, body) {
    try {
      const detail = await body();
      results.push({ name, ok: detail === true, detail: detail === true ? "" : String(detail) });
    } catch (error) {
      results.push({ name, ok: false, detail: `threw ${error.status || ""} ${error.message}` });
    }
  }
  function expect(actual, expected, what) {
    return same(actual, expected) || `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  function shape(page) {
    return { page: page.page, pageSize: page.pageSize, total: page.total, totalPages: page.totalPages };
  }
  async function failure(call) {
    try {
      await call();
    } catch (error) {
      return [error.status, error.code];
    }
    return "no error";
  }
  async function legacyRun() {
    const page = await repository.listRuns({ page: 1, pageSize: 50 });
    return page.items.find((run) => run.legacy && run.themeKey === LEGACY_THEME);
  }

  await check("runs: first page, created_at DESC then id DESC, 10 per page", async () => {
    const page = await repository.listRuns({ page: 1 });
    return expect([page.items.map((run) => run.id), shape(page)],
      [runIds([1, 2, 3, 4, 6, 5, 7, 8, 9, 10]), { page: 1, pageSize: 10, total: 14, totalPages: 2 }], "page 1");
  });
  await check("runs: second page continues without overlap, the legacy run (oldest) last", async () => {
    const page = await repository.listRuns({ page: 2, pageSize: 10 });
    const legacy = await legacyRun();
    return expect([page.items.map((run) => run.id), shape(page)],
      [[...runIds([11, 12, 13]), legacy && legacy.id], { page: 2, pageSize: 10, total: 14, totalPages: 2 }], "page 2");
  });
  await check("legacy: results saved without a run are one read-only synthetic run of their theme", async () => {
    const run = await legacyRun();
    const again = await repository.getRun(run.id);
    const posts = await repository.listRunPosts(run.id, { page: 1 });
    const pick = (r) => [keys(r), r.legacy, r.jobId, r.status, r.themeLabel, r.terms, r.targetCount, r.eligibleCount,
      r.pendingCount, r.shortfallCount, iso(r.createdAt)];
    const expected = [RUN_KEYS, true, null, "succeeded", LEGACY_THEME, [], 2, 2, 1, 0, "2026-07-19T19:40:00.000Z"];
    return expect([pick(run), pick(again), posts.items.map((post) => [post.id, post.runId]), shape(posts)],
      [expected, expected, [[id(POST(22)), run.id], [id(POST(21)), run.id]],
        { page: 1, pageSize: 8, total: 2, totalPages: 1 }], "legacy run");
  });
  await check("runs: page < 1 is 1, pageSize < 1 is the default, pageSize > 50 is 50", async () => {
    const low = await repository.listRuns({ page: 0, pageSize: 0 });
    const high = await repository.listRuns({ page: -3, pageSize: 500 });
    return expect([shape(low), shape(high), high.items.length],
      [{ page: 1, pageSize: 10, total: 14, totalPages: 2 }, { page: 1, pageSize: 50, total: 14, totalPages: 1 }, 14],
      "normalized paging");
  });
  await check("runs: counts and shortfall reasons", async () => {
    const page = await repository.listRuns({ page: 1 });
    const byId = new Map(page.items.map((run) => [run.id, run]));
    const pick = (run) => [run.status, run.targetCount, run.eligibleCount, run.pendingCount, run.shortfallCount,
      run.shortfallReasons];
    return expect([pick(byId.get(id(RUN(1)))), pick(byId.get(id(RUN(2)))), pick(byId.get(id(RUN(3)))),
      pick(byId.get(id(RUN(4))))], [
      ["running", 1, 0, 0, 0, []],
      ["succeeded", 20, 11, 6, 9, ["source_exhausted"]],
      ["succeeded", 3, 1, 1, 2, ["relevance_exhausted", "limit_reached"]],
      ["succeeded", 1, 1, 0, 0, []],
    ], "run fields");
  });
  await check("results: score DESC, known posted_at first, posted_at DESC, created_at DESC, id DESC", async () => {
    const first = await repository.listRunPosts(id(RUN(2)), { page: 1 });
    const second = await repository.listRunPosts(id(RUN(2)), { page: 2 });
    return expect([first.items.map((post) => post.id), shape(first), second.items.map((post) => post.id), shape(second)],
      [postIds([1, 3, 2, 5, 4, 8, 7, 6]), { page: 1, pageSize: 8, total: 11, totalPages: 2 },
        postIds([9, 10, 11]), { page: 2, pageSize: 8, total: 11, totalPages: 2 }], "result pages");
  });
  await check("results: small pages are deterministic and neither repeat nor skip", async () => {
    const seen = [];
    for (let page = 1; page <= 4; page += 1) {
      const again = (await repository.listRunPosts(id(RUN(2)), { page, pageSize: 3 })).items.map((post) => post.id);
      const once = (await repository.listRunPosts(id(RUN(2)), { page, pageSize: 3 })).items.map((post) => post.id);
      if (!same(again, once)) return `page ${page} differs between two reads`;
      seen.push(...once);
    }
    return expect(seen, postIds([1, 3, 2, 5, 4, 8, 7, 6, 9, 10, 11]), "pages of 3");
  });
  await check("results: unknown posted_at is null and never filled from created_at", async () => {
    const page = await repository.listRunPosts(id(RUN(2)), { page: 1, pageSize: 50 });
    const unknown = page.items.filter((post) => post.postedAt === null).map((post) => post.id);
    const p01 = page.items.find((post) => post.id === id(POST(1)));
    const p04 = page.items.find((post) => post.id === id(POST(4)));
    return expect([unknown, p01.postedAt.toISOString(), p04.createdAt instanceof Date],
      [postIds([5, 4, 11]), "2026-07-01T05:00:00.000Z", true], "unknown times");
  });
  await check("results: a run still running shows no results, only its state", async () => {
    const page = await repository.listRunPosts(id(RUN(1)), { page: 1 });
    return expect([page.items.length, page.total, page.run.status], [0, 0, "running"], "running run");
  });
  await check("errors: unknown runs, results and jobs are 404 with the service's words", async () => {
    const unknown = "00000000-0000-4000-8000-00000000ffff";
    return expect([await failure(() => repository.listRunPosts(unknown, { page: 1 })),
      await failure(() => repository.getRun(unknown)), await failure(() => repository.deleteRun(unknown)),
      await failure(() => repository.actOnPost(unknown, "skip")), await failure(() => repository.deletePost(unknown)),
      await failure(() => repository.getJob(unknown))],
    [[404, "run_not_found"], [404, "run_not_found"], [404, "run_not_found"], [404, "post_not_found"],
      [404, "post_not_found"], [404, "job_not_found"]], "404s");
  });
  await check("delete: a running run is refused with 409 run_not_terminal and stays", async () => {
    const refused = await failure(() => repository.deleteRun(id(RUN(1))));
    const page = await repository.listRuns({ page: 1 });
    return expect([refused, page.items[0].id, page.total], [[409, "run_not_terminal"], id(RUN(1)), 14],
      "after refused delete");
  });
  await check("actions: skipping a result lowers pending and never moves it; the answer is {post, run}", async () => {
    const answer = await repository.actOnPost(id(POST(1)), "skip");
    const page = await repository.listRunPosts(id(RUN(2)), { page: 1 });
    return expect([keys(answer), keys(answer.post), keys(answer.run), answer.post.status, answer.run.id,
      answer.run.pendingCount, page.items[0].id, page.items[0].status, page.run.pendingCount],
    [["post", "run"], POST_KEYS, RUN_KEYS, "skipped", id(RUN(2)), 5, id(POST(1)), "skipped", 5], "after skip");
  });
  await check("actions: only a drafted result can be published; the draft keeps its text", async () => {
    const refused = await failure(() => repository.actOnPost(id(POST(3)), "publish"));
    const drafted = await repository.actOnPost(id(POST(3)), "draft", { draftText: "謝謝分享，想請教更多細節。" });
    const read = (await repository.listRunPosts(id(RUN(2)), { page: 1 })).items[1];
    const published = await repository.actOnPost(id(POST(3)), "publish");
    const again = await failure(() => repository.actOnPost(id(POST(3)), "draft"));
    const page = await repository.listRunPosts(id(RUN(2)), { page: 1 });
    return expect([refused, drafted.post.status, drafted.post.draftText, drafted.run.pendingCount, read.draftText,
      published.post.status, published.post.draftText, published.run.pendingCount, again, page.items[1].id,
      page.run.pendingCount],
    [[409, "post_status_conflict"], "drafted", "謝謝分享，想請教更多細節。", 5, "謝謝分享，想請教更多細節。",
      "published", "謝謝分享，想請教更多細節。", 4, [409, "post_status_conflict"], id(POST(3)), 4], "draft then publish");
  });
  await check("delete: removing the last result of the last page shrinks total and pages; counts follow", async () => {
    const answer = await repository.deletePost(id(POST(11)));
    const last = await repository.listRunPosts(id(RUN(2)), { page: 2 });
    const counts = (run) => [run.id, run.eligibleCount, run.shortfallCount, run.pendingCount];
    return expect([keys(answer), keys(answer.run), counts(answer.run), last.items.map((post) => post.id), shape(last),
      counts(last.run)],
    [["run"], RUN_KEYS, [id(RUN(2)), 10, 10, 3], postIds([9, 10]), { page: 2, pageSize: 8, total: 10, totalPages: 2 },
      [id(RUN(2)), 10, 10, 3]], "after delete");
  });
  await check("delete: a run that met its target and falls short by a deletion gives the reason", async () => {
    const answer = await repository.deletePost(id(POST(13)));
    const run = await repository.getRun(id(RUN(4)));
    const pick = (r) => [r.eligibleCount, r.shortfallCount, r.shortfallReasons, r.pendingCount];
    return expect([pick(answer.run), pick(run)], [[0, 1, ["results_deleted"], 0], [0, 1, ["results_deleted"], 0]],
      "run 4 after deleting its only result");
  });
  await check("delete: a terminal run goes with its results", async () => {
    await repository.deleteRun(id(RUN(3)));
    const page = await repository.listRuns({ page: 2 });
    let status = null;
    try {
      await repository.listRunPosts(id(RUN(3)), { page: 1 });
    } catch (error) {
      status = error.status;
    }
    const legacy = await legacyRun();
    return expect([page.total, page.items.map((run) => run.id), status], [13, [...runIds([12, 13]), legacy.id], 404],
      "after run delete");
  });
  await check("legacy: deleting a legacy result shrinks its run; deleting the run removes its results", async () => {
    const legacy = await legacyRun();
    const answer = await repository.deletePost(id(POST(21)));
    const pick = (r) => [r.id, r.legacy, r.targetCount, r.eligibleCount, r.pendingCount, r.shortfallCount];
    await repository.deleteRun(legacy.id);
    return expect([pick(answer.run), await failure(() => repository.getRun(legacy.id)),
      await failure(() => repository.deletePost(id(POST(22)))), (await repository.listRuns({ page: 1 })).total],
    [[legacy.id, true, 1, 1, 0, 0], [404, "run_not_found"], [404, "post_not_found"], 12], "legacy delete");
  });
  await check("jobs: getJob returns the run's job with its progress, in the domain shape", async () => {
    const job = await repository.getJob(id(JOB(1)));
    return expect([keys(job), job.id, job.templateType, job.refId, job.status, job.progressStage,
      job.progressStageNumber, job.eligibleCount,
      job.targetCount, job.searchedCount, job.duplicateCount, job.irrelevantCount, job.cancelRequested,
      job.errorSummary, iso(job.createdAt), iso(job.startedAt), job.completedAt, job.updatedAt instanceof Date],
    [JOB_KEYS, id(JOB(1)), "scout_scan", id(RUN(1)), "running", "searching", 1, 0, 1, 20, 0, 13,
      false, "", "2026-07-20T11:00:00.000Z", "2026-07-20T11:00:02.000Z", null, true], "job of run 1");
  });
  await check("jobs: an unknown job is 404 job_not_found; cancelling a finished job is 409 job_terminal", async () => {
    return expect([await failure(() => repository.getJob("00000000-0000-4000-8000-00000000ffff")),
      await failure(() => repository.cancelJob(id(JOB(2))))],
    [[404, "job_not_found"], [409, "job_terminal"]], "errors");
  });
  await check("jobs: cancelling a running job flags it; the run runs on to its next stage boundary", async () => {
    const job = await repository.cancelJob(id(JOB(1)));
    const again = await repository.getJob(id(JOB(1)));
    const run = await repository.getRun(id(RUN(1)));
    return expect([keys(job), job.status, job.cancelRequested, again.cancelRequested, keys(run), run.status],
      [JOB_KEYS, "running", true, true, RUN_KEYS, "running"], "after cancel");
  });
  await check("scan: a brief outside the service's limits is refused with its 400 code and creates nothing", async () => {
    const brief = { intent: "周杰倫演唱會", terms: ["周杰倫演唱會"], mode: "topic", target_count: 3 };
    const refused = [
      await failure(() => repository.createScan({ ...brief, intent: "   " })),
      await failure(() => repository.createScan({ ...brief, intent: "話".repeat(501) })),
      await failure(() => repository.createScan({ ...brief, terms: [] })),
      await failure(() => repository.createScan({ ...brief, terms: Array.from({ length: 11 }, (_, n) => `詞${n}`) })),
      await failure(() => repository.createScan({ ...brief, terms: ["字".repeat(101)] })),
      await failure(() => repository.createScan({ ...brief, mode: "everything" })),
      await failure(() => repository.createScan({ ...brief, target_count: 0 })),
      await failure(() => repository.createScan({ ...brief, target_count: 41 })),
    ];
    const page = await repository.listRuns({ page: 1 });
    const invalid = [400, "invalid_brief"];
    const target = [400, "invalid_target_count"];
    return expect([refused, page.total],
      [[invalid, invalid, invalid, invalid, invalid, invalid, target, target], 12], "refused briefs");
  });
  await check("scan: createScan answers {run, job}, the run queued and newest, with its terms", async () => {
    const answer = await repository.createScan({ intent: "周杰倫演唱會", terms: ["周杰倫演唱會", "周董"], mode: "topic",
      target_count: 3 });
    const { run, job } = answer;
    const page = await repository.listRuns({ page: 1 });
    return expect([keys(answer), keys(run), keys(job), run.status, run.intent, run.terms, run.targetCount,
      run.jobId === job.id, run.createdAt instanceof Date, job.refId === run.id, job.status, job.progressStage,
      job.targetCount, job.cancelRequested, page.items[0].id === run.id, page.total],
    [["job", "run"], RUN_KEYS, JOB_KEYS, "queued", "周杰倫演唱會", ["周杰倫演唱會", "周董"], 3, true, true, true,
      "queued", "queued", 3, false, true, 13], "created scan");
  });
  return results;
}
