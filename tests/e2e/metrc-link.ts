/** Links the signed-in admin's facility to the e2e server's METRC emulator from a Metrc screen's panel. */
import type { Page } from '@playwright/test'
import { DEMO_USER_KEY, GROW_LICENSE } from '../../app/metrc/emulator/model'
import { expect } from './fixtures'

export async function linkToEmulator(page: Page, screen: string) {
  await page.goto(screen)
  const panel = page.getByTestId('metrc-panel')
  await panel.getByLabel('State', { exact: true }).selectOption('CA')
  await panel.getByLabel('State License').fill(GROW_LICENSE)
  await panel.getByLabel('METRC API Key').fill(DEMO_USER_KEY)
  await panel.getByRole('button', { name: 'Save and check' }).click()
  await expect(page.getByTestId('metrc-panel')).toContainText('This facility is now linked to METRC.')
}
