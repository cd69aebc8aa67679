/**
 * SPEC §8/§9: a script chunk that fails to load. This tiny script runs inline in <head>, before
 * any module: a failed module script is retried once by reloading the page; if the app has
 * still not started after 120 s, the page says so (it keeps working without JavaScript) and the
 * server is told (POST /client-report). entry.client clears it once React has hydrated.
 */
export const CHUNK_TIMEOUT_MS = 120_000

/** The inline script's source (kept small: it is in every page). */
export const BOOT_WATCHDOG = `(function(){var K='canopy-chunk-retry',W=window,S;try{S=W.sessionStorage}catch(e){}
function tries(){return +(S&&S.getItem(K)||0)}
function report(why){try{navigator.sendBeacon('/client-report',JSON.stringify({kind:'chunk-load',why:why,path:location.pathname,tries:tries()}))}catch(e){}}
addEventListener('error',function(e){var t=e.target;if(!t||!t.tagName||W.__canopyHydrated)return;
if((t.tagName==='SCRIPT'&&t.type==='module')||(t.tagName==='LINK'&&t.rel==='modulepreload')){
if(tries()<1&&S){S.setItem(K,tries()+1);setTimeout(function(){location.reload()},1500)}}},true);
setTimeout(function(){if(W.__canopyHydrated)return;report('not started after ${CHUNK_TIMEOUT_MS / 1000} s');
var d=document.createElement('div');d.setAttribute('role','alert');d.id='chunk-load-failure';
d.style.cssText='position:fixed;left:1rem;right:1rem;bottom:1rem;z-index:99;padding:1rem;border-radius:.4rem;background:#7f1d1d;color:#fff;font:16px/1.4 system-ui,sans-serif';
d.textContent='Part of the app could not be loaded. The page still works; reload it when the connection is better.';
document.body.appendChild(d)},${CHUNK_TIMEOUT_MS})})();`

/** Called by entry.client once hydrated: the watchdog stands down and the retry count resets. */
export function bootSucceeded() {
  ;(window as unknown as { __canopyHydrated?: boolean }).__canopyHydrated = true
  try {
    sessionStorage.removeItem('canopy-chunk-retry')
  } catch {
    /* storage may be off */
  }
}
