/** Saves `blob` through the page as a file named `fileName` (a temporary `<a download>`; no navigation). The browser host's way to save; Electron blocks downloads. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked once the click is handled (the download has its own copy by then).
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
