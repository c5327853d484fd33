// Copying text: the async Clipboard API, with the old textarea + execCommand('copy') route for
// pages or browsers where it is missing or refused (e.g. no permission, an insecure context).

/** Copies `text`; returns false when neither route worked. `container` hosts the temporary textarea. */
export async function copyText(text: string, container: ParentNode, restoreFocus?: HTMLElement): Promise<boolean> {
  if (typeof navigator.clipboard?.writeText === 'function') {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (permission, focus): the fallback below may still work, and its failure is reported.
    }
  }
  return copyWithExecCommand(text, container, restoreFocus);
}

function copyWithExecCommand(text: string, container: ParentNode, restoreFocus?: HTMLElement): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.tabIndex = -1;
  area.setAttribute('aria-hidden', 'true');
  area.style.cssText = 'position:fixed;top:0;left:0;width:1px;height:1px;padding:0;border:0;opacity:0;';
  container.append(area);
  try {
    area.select();
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    restoreFocus?.focus();
  }
}
