/** /SchCalendar: the task calendar (app/areas/calendar; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { CalendarPage } from '../areas/calendar/calendar-page'
import { calendarAction, calendarLoader } from '../areas/calendar/calendar.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Calendar · ${APP_NAME}` }]
export const loader = calendarLoader
export const action = calendarAction
export default CalendarPage
