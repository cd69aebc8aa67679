/**
 * The distribution area's server half (decision 022, issue 24): the guards that keep
 * the flow's figures to its own actions on the one write path (the demo flow: finance/area.server.ts).
 */
import type { ServerArea } from '../area'
import { registerWriteStep } from '../../records/write-hooks.server'
import { invoiceGuard, orderGuard, paymentGuard } from './guard.server'

export const serverArea: ServerArea = {
  name: 'distribution',
  install() {
    registerWriteStep('dis_orders', 'distribution:order-figures', orderGuard)
    registerWriteStep('tax_receivables', 'distribution:invoice-figures', invoiceGuard)
    registerWriteStep('fin_payments', 'distribution:payment-figures', paymentGuard)
  },
}
