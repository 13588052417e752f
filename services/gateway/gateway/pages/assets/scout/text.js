// What the /scout workbench says, in Traditional Chinese: statuses, shortfall reasons, a job's
// step, failure reasons and errors. Codes never reach the screen.

export const STATUS_TEXT = {
  queued: "等待中", running: "執行中", succeeded: "已完成", failed: "失敗", cancelled: "已取消",
};
export const SHORTFALL_TEXT = {
  source_exhausted: "已用完可用的搜尋階段，來源沒有更多候選",
  duplicate_exhausted: "大量候選與本批次或先前結果重複",
  relevance_exhausted: "大量候選未通過話題核心或分類門檻",
  source_unavailable: "有搜尋來源暫時無法使用，已由其他來源完成",
  limit_reached: "已達本次安全檢視上限",
  results_deleted: "已刪除部分結果，低於目標數",
};
export const OUTREACH_TEXT = {
  new: "未處理", drafted: "已草擬", skipped: "已略過", queued: "排入發佈", published: "已發佈",
};
export const ACTION_TEXT = { draft: "草擬", skip: "略過", publish: "發佈" };
export const ACTION_DONE_TEXT = { draft: "已儲存草稿。", skip: "已略過這則結果。", publish: "已發佈回覆。" };
// The scout service's failure summaries (error_summary of a failed run), in the page's words.
const FAILURE_TEXT = {
  "every search source was unavailable": "所有搜尋來源都暫時無法使用。",
  "the search pipeline could not complete": "搜尋流程未能完成。",
  "the job payload does not name the job's run": "背景任務的資料與批次不符。",
  "the scan job could not be scheduled": "背景任務無法排程執行。",
  "the scan worker stopped before the run finished": "執行中的背景程序中斷，批次未完成。",
};
// Why a search source answered nothing (a run's source_failures), for the member; the operator's
// remedy is named where the member cannot act.
const SOURCE_TEXT = { threads: "Threads 搜尋", serp: "Google 搜尋", dev: "範例資料" };
const SOURCE_FAILURE_TEXT = {
  auth: "存取憑證無效或已過期，需由管理者更新",
  permission: "缺少搜尋權限，需由管理者設定",
  rate_limited: "請求太頻繁，暫時被限制",
  quota_exhausted: "搜尋額度已用完",
  transient: "暫時無法連線",
  malformed: "回應內容無法解讀",
  budget: "已用完這段時間的搜尋額度，本批次不再使用",
};
const ERROR_TEXT = {
  400: "輸入無法接受。",
  401: "登入已過期，請重新登入。",
  404: "找不到這個批次或結果，可能已被刪除。",
  409: "目前狀態不允許這個操作。",
  503: "海巡服務或搜尋來源暫時無法使用，請稍後再試。",
  504: "海巡服務回應逾時，請稍後再試。",
};
const CONFLICT_TEXT = {
  run_not_terminal: "批次仍在等待或執行中，無法刪除。請先取消任務，待批次結束後再刪除。",
  post_status_conflict: "這則結果目前的處理狀態不允許這個操作。",
  job_terminal: "任務已經結束。",
};
const INPUT_TEXT = {
  invalid_brief: "話題或搜尋詞無法接受",
  invalid_target_count: "目標數無法接受",
};

export function hasShortfall(run) {
  return run.status === "succeeded" && run.shortfallCount > 0;
}

export function statusText(run) {
  return hasShortfall(run) ? "完成但不足" : STATUS_TEXT[run.status] || "未知狀態";
}

// The chip's colour class: a shortfall is a warning, not a success.
export function statusClass(run) {
  return `status status-${hasShortfall(run) ? "shortfall" : run.status}`;
}

export function reasonTexts(run) {
  return [...new Set(run.shortfallReasons.map((code) => SHORTFALL_TEXT[code] || "其他原因"))];
}

export function sourceFailureTexts(run) {
  return run.sourceFailures.map(({ source, kind }) =>
    `${SOURCE_TEXT[source] || "搜尋來源"}：${SOURCE_FAILURE_TEXT[kind] || "暫時無法使用"}`);
}

export function failureText(run) {
  return FAILURE_TEXT[run.errorSummary] || "背景任務未能完成。";
}

// A job's step, worded from its data (stage and search stage number).
export function progressText(job) {
  switch (job.progressStage) {
    case "searching": return `第 ${job.progressStageNumber} 階段搜尋`;
    case "filtering": return "篩選／去重";
    case "publishing": return "發佈結果";
    default: return "準備來源";
  }
}

// An error as the person reads it; a refused input carries the service's own reason.
export function errorText(error) {
  if (error.status === 400) {
    const lead = INPUT_TEXT[error.code] || "輸入無法接受";
    return error.message ? `${lead}：${error.message}` : `${lead}。`;
  }
  if (error.status === 409 && CONFLICT_TEXT[error.code]) return CONFLICT_TEXT[error.code];
  return ERROR_TEXT[error.status] || "發生錯誤，請稍後再試。";
}
