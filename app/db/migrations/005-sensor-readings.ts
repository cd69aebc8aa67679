/**
 * Sensor readings (issue 8): a narrow time series, not a JSON document per reading. Raw readings
 * (one row per device, code and time) are kept SENSOR_RAW_DAYS; hourly rollups (count, sum, min,
 * max) are kept with them and after them, maintained as readings arrive; the latest value of each
 * code of each device answers GET /dt/v1/{deviceID}?last=1 and the gauges without a scan.
 * Every row carries its organisation, and it leads every key.
 */
export default `
CREATE TABLE sensor_readings (
  org        text NOT NULL,
  device_id  text NOT NULL,
  code       text NOT NULL,
  at         timestamptz NOT NULL,
  value      double precision NOT NULL,
  PRIMARY KEY (org, device_id, code, at)
);
CREATE INDEX sensor_readings_at ON sensor_readings (at);

CREATE TABLE sensor_hourly (
  org        text NOT NULL,
  device_id  text NOT NULL,
  code       text NOT NULL,
  hour       timestamptz NOT NULL,
  n          integer NOT NULL,
  sum        double precision NOT NULL,
  min        double precision NOT NULL,
  max        double precision NOT NULL,
  PRIMARY KEY (org, device_id, code, hour)
);

CREATE TABLE sensor_latest (
  org        text NOT NULL,
  device_id  text NOT NULL,
  code       text NOT NULL,
  at         timestamptz NOT NULL,
  value      double precision NOT NULL,
  PRIMARY KEY (org, device_id, code)
);
`
