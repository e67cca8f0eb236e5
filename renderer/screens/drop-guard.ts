/**
 * Files dropped outside the places that take them (the composer takes images) are refused where they land. Left
 * to the browser, a dropped file opens in place of Bosun's page: in the browser host the tab leaves Bosun (and its
 * token already left the address bar); Electron blocks the navigation but only in main, after the fact.
 */
export function guardFileDrops(target: Pick<Window, 'addEventListener' | 'removeEventListener'>): () => void {
  const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files')
  const onDragOver = (e: DragEvent) => {
    // A place that takes the drop said so first (its own handler ran as the event bubbled up).
    if (e.defaultPrevented || !carriesFiles(e)) return
    e.preventDefault()
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'none'
  }
  const onDrop = (e: DragEvent) => {
    if (carriesFiles(e)) e.preventDefault()
  }
  target.addEventListener('dragover', onDragOver)
  target.addEventListener('drop', onDrop)
  return () => {
    target.removeEventListener('dragover', onDragOver)
    target.removeEventListener('drop', onDrop)
  }
}
